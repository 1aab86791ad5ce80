/**
 * `labeldesk team claim | work | release | assign | take-back | lease`: work without collisions
 * (README "Working as a team", The lead's part). The hub refuses an annotator the lead's verbs.
 */
import type { Command } from 'commander';
import {
  claimCount,
  leaseDurationSeconds,
  teamWorkOf,
  type ClaimedFile,
  type TeamClaim,
} from '../../application/team-work.js';
import { UsageError } from '../../application/usage-error.js';
import type { SetExit, WithTeam } from './team-command.js';

const fileLine = (f: ClaimedFile) =>
  `  ${f.path ?? `${f.relPath} (not on this desktop)`}  until ${new Date(f.leaseUntil).toISOString()}`;

function claimText(c: TeamClaim, verb: string): string {
  const minutes = Math.round(c.leaseSeconds / 6) / 10;
  return [
    `${verb} ${c.claimed.length} file(s); you hold ${c.holding.length} (a lease ends after ${minutes} idle minute(s)).`,
    ...c.holding.map(fileLine),
  ].join('\n');
}

export function addTeamWorkCommands(team: Command, setExit: SetExit, withTeam: WithTeam): void {
  team
    .command('claim [count]')
    .description('Take files nobody else holds, best first, under a lease (default 20).')
    .option('--json', 'print JSON')
    .action((count: string | undefined, o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const c = await teamWorkOf(app).claim(claimCount(count));
          return o.json ? c : claimText(c, 'Claimed');
        },
        o.json,
      ),
    );
  team
    .command('work')
    .description('The files you hold now, and until when.')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const c = await teamWorkOf(app).mine();
          return o.json ? c : claimText(c, 'Claimed');
        },
        o.json,
      ),
    );
  team
    .command('release [files...]')
    .description('Give back files you hold (paths or content hashes), or --all.')
    .option('--all', 'every file you hold')
    .option('--json', 'print JSON')
    .action((files: string[], o: { all?: boolean; json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          if (o.all ? files.length > 0 : files.length === 0) {
            throw new UsageError('Name files to release, or give --all (not both).');
          }
          const r = await teamWorkOf(app).release(o.all ? 'all' : files);
          if (r.notHeld.length > 0) setExit(1);
          if (o.json) return r;
          return [
            `Released ${r.released} file(s).`,
            ...r.notHeld.map((n) => `  ${n}: you hold no such file`),
          ].join('\n');
        },
        o.json,
      ),
    );
  team
    .command('assign <member>')
    .description(
      'Lead: give a member the files under a folder, or that pass filters (their claims take them first).',
    )
    .option('--folder <dir>', "a folder relative to the project's (. for all, the default)", '.')
    .option(
      '--filter <term>',
      'kind=image|video, class=LABEL (in the model answers), state=reviewed|unreviewed; repeatable',
      (term: string, all: string[]) => [...all, term],
      [] as string[],
    )
    .option('--json', 'print JSON')
    .action((member: string, o: { folder: string; filter: string[]; json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const r = await teamWorkOf(app).assign(member, o.folder, o.filter);
          return o.json ? r : `Assigned ${r.assigned} file(s) to ${member}.`;
        },
        o.json,
      ),
    );
  team
    .command('take-back <member>')
    .description("Lead: take back a member's assignments and unfinished claims.")
    .option('--folder <dir>', "only under this folder (relative to the project's)")
    .option('--json', 'print JSON')
    .action((member: string, o: { folder?: string; json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const r = await teamWorkOf(app).takeBack(member, o.folder ?? null);
          return o.json ? r : `Took back ${r.takenBack} file(s) from ${member}.`;
        },
        o.json,
      ),
    );
  team
    .command('lease [duration]')
    .description("How long a claim lasts idle (e.g. 30m); setting it is the lead's.")
    .option('--json', 'print JSON')
    .action((duration: string | undefined, o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (_t, app) => {
          const seconds = await teamWorkOf(app).lease(
            duration === undefined ? undefined : leaseDurationSeconds(duration),
          );
          return o.json ? { leaseSeconds: seconds } : `A claim lasts ${seconds} s idle.`;
        },
        o.json,
      ),
    );
}
