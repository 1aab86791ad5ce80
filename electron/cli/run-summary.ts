/** The end of a labelling run, for people and for scripts (`--json`), and its exit code. */
import type { RunPlan } from '../core/runner/plan-run.js';
import { stopMessage, type RunSummary } from '../core/runner/run-labelling.js';
import { terminalText } from './terminal-text.js';

/** 130 for an interrupted run follows the shell's 128 + SIGINT: it did not finish. */
export const EXIT = { ok: 0, failed: 1, usage: 2, credits: 3, interrupted: 130 } as const;

export function exitCodeOf(summary: RunSummary): number {
  if (summary.interrupted) return EXIT.interrupted;
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
    interrupted: summary.interrupted,
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
  if (summary.stoppedFor) lines.push(`Stopped: ${stopMessage(summary.stoppedFor)}`);
  if (summary.interrupted)
    lines.push('Interrupted: clips still being analysed are picked up by the next run.');
  return lines.map(terminalText).join('\n');
}
