/**
 * `labeldesk team settings|honeypots|disagreements|settle|report`: the lead's part of a team
 * project's quality (README "Working as a team", Overlap and honeypots).
 */
import type { Command } from 'commander';
import {
  parseShare,
  teamQuality,
  type Disagreement,
  type MemberReport,
  type TeamReport,
} from '../../application/team-quality.js';
import { UsageError } from '../../application/usage-error.js';
import { EXIT } from '../run-summary.js';
import type { SetExit, WithTeam } from './team-command.js';

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);
const num = (v: number | null) => (v === null ? '–' : v.toFixed(3));

function memberLine(m: MemberReport): string {
  const h = m.honeypots;
  return [
    `  ${m.member} (${m.role}): ${m.filesReviewed} file(s) reviewed, ${m.boxesChanged} box(es) changed,`,
    `${Math.round(m.activeSeconds / 60)} min active, ${m.framesSpent} frame(s) spent;`,
    `agreement F1 ${num(m.agreement.f1)} (mean IoU ${num(m.agreement.meanIou)}, ${m.agreement.files} file(s));`,
    `honeypots ${h.files}: precision ${pct(h.precision)}, recall ${pct(h.recall)}` +
      (h.seen > 0 ? ` (${h.seen} more left out: truth pulled before it was marked)` : ''),
  ].join(' ');
}

function reportText(r: TeamReport): string {
  return [
    `Overlap ${pct(r.overlapShare)}: ${r.overlapFiles} file(s), ${r.settledFiles} settled; ${r.honeypotFiles} honeypot(s).`,
    'Members:',
    ...r.members.map(memberLine),
    'Agreement (IoU ≥ 0.5):',
    ...(r.pairs.length === 0 ? ['  no overlap file reviewed by two members yet'] : []),
    ...r.pairs.flatMap((p) => [
      `  ${p.members.join(' & ')} on ${p.files} file(s): F1 ${num(p.overall.f1)}, mean IoU ${num(p.overall.meanIou)}`,
      ...p.classes.map(
        (c) =>
          `    ${c.label}: F1 ${num(c.f1)}, mean IoU ${num(c.meanIou)} (${c.a}/${c.b}, ${c.matched} matched)`,
      ),
    ]),
    `The model on ${r.model.files} reviewed file(s): precision ${pct(r.model.precision)}, recall ${pct(r.model.recall)}, mAP50 ${num(r.model.map50)}`,
  ].join('\n');
}

function disagreementText(d: Disagreement): string {
  return [
    `${d.relPath}: ${d.members.join(', ')}, F1 ${num(d.overall.f1)}`,
    ...d.unmatched.map(
      (u) =>
        `  ${u.member} has ${u.label} at ${[u.bbox.x, u.bbox.y, u.bbox.w, u.bbox.h].map((v) => v.toFixed(3)).join(',')} (frame ${u.frameIndex}), ${u.against} has none there`,
    ),
  ].join('\n');
}

export function addTeamQualityCommands(team: Command, setExit: SetExit, withTeam: WithTeam): void {
  team
    .command('settings [name] [value]')
    .description('Show the quality settings, or set one (lead only): overlap 10%')
    .option('--json', 'print JSON')
    .action((name: string | undefined, value: string | undefined, o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const q = teamQuality(app);
          if (name !== undefined) {
            if (name !== 'overlap' || value === undefined) {
              throw new UsageError('Set `overlap SHARE` (for example `overlap 10%`).');
            }
            await q.setOverlap(parseShare(value));
          }
          const s = await q.settings();
          return o.json
            ? s
            : `Overlap: ${pct(s.overlapShare)} of files reviewed blind by two members.`;
        },
        o.json,
      ),
    );
  team
    .command('honeypots')
    .description("Files with known labels mixed into members' work (lead only): list, or add FILES")
    .argument('[add]', 'add')
    .argument('[files...]', 'files of this library (your version of each is its truth)')
    .option('--json', 'print JSON')
    .action((verb: string | undefined, files: string[], o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const q = teamQuality(app);
          if (verb !== undefined) {
            if (verb !== 'add' || files.length === 0) throw new UsageError('Give `add FILE…`.');
            const r = await q.addHoneypots(files);
            return o.json
              ? r
              : r.added
                  .map((a) => `Honeypot ${a.contentHash.slice(0, 16)}: ${a.boxes} known box(es).`)
                  .join('\n');
          }
          const list = (await q.files()).filter((f) => f.honeypot);
          return o.json
            ? { honeypots: list }
            : list.map((f) => f.relPath).join('\n') || 'No honeypots.';
        },
        o.json,
      ),
    );
  team
    .command('disagreements')
    .description('Overlap files two members labelled differently, not settled yet (lead)')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const list = await teamQuality(app).disagreements();
          if (o.json) return { disagreements: list };
          return list.length === 0
            ? 'No open disagreements.'
            : list.map(disagreementText).join('\n');
        },
        o.json,
      ),
    );
  team
    .command('settle [files...]')
    .description("Make one member's version of overlap files the project's labels (lead only)")
    .option('--all', 'every unsettled overlap file the kept member reviewed')
    .requiredOption('--keep <member>', 'the member (PostgreSQL role) whose version to keep')
    .option('--json', 'print JSON')
    .action((files: string[], o: { all?: boolean; keep: string; json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          if (o.all ? files.length > 0 : files.length === 0) {
            throw new UsageError('Name files, or give --all (not both).');
          }
          const r = await teamQuality(app).settle(o.all ? 'all' : { files }, o.keep);
          if (r.skipped.length > 0) setExit(EXIT.failed);
          if (o.json) return r;
          return [
            `Settled ${r.settled.length} file(s) keeping ${o.keep}'s version.`,
            ...(r.waiting
              ? [
                  'The hub went away meanwhile: the settlement waits here and goes out on the next sync.',
                ]
              : []),
            ...r.skipped.map((s) => `  ${s.file}: not settled, ${s.reason}`),
          ].join('\n');
        },
        o.json,
      ),
    );
  team
    .command('report')
    .description(
      'Per member: files reviewed, boxes changed, time, agreement, honeypots, frames (lead)',
    )
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const r = await teamQuality(app).report();
          return o.json ? r : reportText(r);
        },
        o.json,
      ),
    );
}
