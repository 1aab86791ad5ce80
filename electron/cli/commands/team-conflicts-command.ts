/**
 * `labeldesk team conflicts` and `team resolve`: the boxes two members changed without seeing
 * each other's change, and a person keeping one version (README "Working as a team", Conflicts).
 */
import type { Command } from 'commander';
import type { TeamConflict } from '../../application/team-projects.js';
import { UsageError } from '../../application/usage-error.js';
import { EXIT } from '../run-summary.js';
import type { SetExit, WithTeam } from './team-command.js';

const iso = (ms: number) => new Date(ms).toISOString();

function conflictText(c: TeamConflict): string {
  const where = `${c.path ?? c.contentHash.slice(0, 16)} · ${c.solution} · frame ${c.frameIndex}`;
  const versions = c.versions.map((v) => {
    const what = v.deleted ? 'deleted' : `${v.label ?? '?'} (${v.review})`;
    return `  ${v.mine ? `${v.member} (you)` : v.member}: ${what} at ${iso(v.at)}`;
  });
  return [`${c.id}  ${where}${c.canResolve ? '' : '  [a lead settles it]'}`, ...versions].join(
    '\n',
  );
}

export function addTeamConflictCommands(team: Command, setExit: SetExit, withTeam: WithTeam): void {
  team
    .command('conflicts')
    .description('Boxes two members changed without seeing each other: both versions, who, when.')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (t) => {
          const list = t.conflicts();
          if (o.json) return { conflicts: list };
          return list.length === 0 ? 'No open conflicts.' : list.map(conflictText).join('\n');
        },
        o.json,
      ),
    );
  team
    .command('resolve [ids...]')
    .description(
      'Settle conflicts by keeping one version (a lead any box; an annotator boxes with a version of theirs).',
    )
    .option('--all', 'every open conflict you may settle')
    .requiredOption('--keep <whose>', 'mine, theirs, or a member (PostgreSQL role)')
    .option('--json', 'print JSON')
    .action((ids: string[], o: { all?: boolean; keep: string; json?: boolean }) =>
      withTeam(
        setExit,
        async (t) => {
          if (o.all ? ids.length > 0 : ids.length === 0) {
            throw new UsageError('Name conflict ids, or give --all (not both).');
          }
          const r = t.resolve(o.all ? 'all' : { ids }, o.keep);
          if (r.skipped.length > 0) setExit(EXIT.failed);
          if (o.json) return r;
          return [
            `Settled ${r.resolved.length} conflict(s); the changes go out with the next sync.`,
            ...r.resolved.map((x) => `  ${x.id}: kept ${x.member}'s version`),
            ...r.skipped.map((x) => `  ${x.id}: not settled, ${x.reason}`),
          ].join('\n');
        },
        o.json,
      ),
    );
}
