/** The end of a labelling run, for people and for scripts (`--json`), and its exit code. */
import {
  stopMessage,
  type DiskState,
  type RunPlan,
  type RunSummary,
} from '../application/labelling-session.js';
import { terminalText } from './terminal-text.js';

/** 130 for an interrupted run follows the shell's 128 + SIGINT: it did not finish. */
/** 4: refused because another run is writing to the library. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  credits: 3,
  libraryBusy: 4,
  /** The library database is damaged (not 1, which means some files failed). */
  libraryDamaged: 5,
  /** `doctor`: the service answered, but something LabelDesk needs was not understood. */
  notUnderstood: 6,
  interrupted: 130,
} as const;

export function exitCodeOf(summary: RunSummary): number {
  if (summary.interrupted) return EXIT.interrupted;
  if (summary.diskFull) return EXIT.failed;
  if (summary.stoppedFor !== null || summary.waitingForCredits > 0) return EXIT.credits;
  if (summary.failed.length > 0 || summary.uncertain.length > 0) return EXIT.failed;
  return EXIT.ok;
}

export function summaryJson(plan: RunPlan, summary: RunSummary) {
  const issue = (i: { media: { path: string }; code: string; message: string }) => ({
    path: i.media.path,
    code: i.code,
    message: i.message,
  });
  return {
    solution: plan.solution.id,
    labelled: summary.labelled,
    reused: summary.reused,
    failed: summary.failed.map(issue),
    uncertain: summary.uncertain.map(issue),
    waitingForCredits: summary.waitingForCredits,
    framesSpent: summary.framesSpent,
    stoppedFor: summary.stoppedFor,
    // Only when the run paused for the service (scripts reading the usual keys see no change).
    ...(summary.serviceWait ? { serviceWait: summary.serviceWait } : {}),
    interrupted: summary.interrupted,
    clipsOpen: summary.clipsOpen,
    notSent: summary.notSent,
    diskFull: summary.diskFull,
    // Only in a team project: answers taken from the hub, files waited for, the hub away.
    ...(summary.team ? { team: summary.team } : {}),
    exitCode: exitCodeOf(summary),
  };
}

export function summaryText(summary: RunSummary): string {
  const lines = [
    `Labelled ${summary.labelled} · reused ${summary.reused} · failed ${summary.failed.length} · uncertain ${summary.uncertain.length} · waiting for credits ${summary.waitingForCredits} · frames spent ${summary.framesSpent}`,
  ];
  if (summary.failed.length) {
    lines.push('Failed:');
    for (const f of summary.failed) lines.push(`  ${f.media.path} — ${f.code}: ${f.message}`);
  }
  if (summary.uncertain.length) {
    lines.push('Uncertain (may have been charged; run again with --retry-uncertain to send them):');
    for (const f of summary.uncertain) lines.push(`  ${f.media.path} — ${f.message}`);
  }
  if (summary.team) lines.push(teamText(summary.team));
  if (summary.serviceWait) {
    const open = summary.clipsOpen
      ? `; ${plural(summary.clipsOpen, 'clip')} left open at the service, collected by the next run`
      : '';
    lines.push(`Paused: ${summary.serviceWait.reason}${open}. Run again later.`);
  } else if (summary.stoppedFor) lines.push(`Stopped: ${stopMessage(summary.stoppedFor)}`);
  if (summary.diskFull) {
    lines.push(
      `Stopped: the disk holding the library is full${summary.notSent ? `; ${plural(summary.notSent, 'file')} not sent` : ''}. Free some space and run again: nothing saved is sent twice.`,
    );
  }
  if (summary.interrupted) {
    const left = [
      ...(summary.notSent && !summary.diskFull
        ? [`${plural(summary.notSent, 'file')} not sent`]
        : []),
      ...(summary.clipsOpen ? [`${plural(summary.clipsOpen, 'clip')} still being analysed`] : []),
    ];
    lines.push(
      left.length
        ? `Interrupted: ${left.join(' and ')}; the next run picks ${summary.notSent + summary.clipsOpen === 1 ? 'it' : 'them'} up.`
        : 'Interrupted.',
    );
  }
  return lines.map(terminalText).join('\n');
}

function teamText(team: NonNullable<RunSummary['team']>): string {
  const taken = `Team: ${plural(team.taken, 'answer')} taken from the hub (not sent, nothing spent)`;
  const waited = team.waitedFor
    ? `, ${plural(team.waitedFor, 'file')} another member was sending waited for`
    : '';
  return team.offline
    ? `${taken}${waited}. The hub could not be asked (${team.offline}): files were sent without checking the team's answers, so a file another member also sent may have been paid twice.`
    : `${taken}${waited}.`;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Said once when the disk fills up during a run, and once when there is space again. */
export function diskMessage(state: DiskState, home: string): string {
  if (!state.full) return 'There is space again: the answers kept in memory are saved.';
  const held = state.waiting
    ? `${plural(state.waiting, 'paid answer')} kept in memory and saved as soon as there is space; `
    : '';
  return `The disk holding the library (${home}) is full: ${held}no new file is sent. Free some space, or press Ctrl-C (an answer not saved by then is marked uncertain, never sent twice).`;
}
