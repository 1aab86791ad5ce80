/**
 * `labeldesk team …`: one project shared through a PostgreSQL hub (README "Working as a team").
 * create, join, member add/remove, sync, status, conflicts, resolve, leave.
 */
import type { Command } from 'commander';
import { openAppContext, type AppContext } from '../../application/app-context.js';
import { TeamError, teamProjects, type TeamStatus } from '../../application/team-projects.js';
import { UsageError } from '../../application/usage-error.js';
import { terminalText } from '../terminal-text.js';
import { EXIT } from '../run-summary.js';
import { addTeamConflictCommands } from './team-conflicts-command.js';
import { addTeamWorkCommands } from './team-work-command.js';
import { addTeamQualityCommands } from './team-quality-command.js';

export type SetExit = (code: number) => void;
export type WithTeam = typeof withTeam;

/** Runs one team action on the library; a TeamError is one line with its code, exit 1. */
async function withTeam(
  setExit: SetExit,
  work: (team: ReturnType<typeof teamProjects>, app: AppContext) => Promise<string | object>,
  json: boolean | undefined,
): Promise<void> {
  const app = openAppContext();
  try {
    const out = await work(teamProjects(app), app);
    if (json || typeof out !== 'string') process.stdout.write(`${JSON.stringify(out)}\n`);
    // Lines are ours; what is in them (paths, names) is escaped.
    else process.stdout.write(`${out.split('\n').map(terminalText).join('\n')}\n`);
  } catch (err) {
    if (!(err instanceof TeamError)) throw err;
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: err.code, message: err.message } })}\n`,
      );
    process.stderr.write(`labeldesk: ${terminalText(err.message)} (${err.code})\n`);
    setExit(EXIT.failed);
  } finally {
    app.close();
  }
}

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

function statusText(s: TeamStatus): string {
  return [
    `Project ${s.project} on ${s.hub}, as ${s.member} (${s.role})`,
    s.online
      ? `Team · ${s.pendingPush === 0 && s.pendingPull === 0 ? 'synced' : `${s.pendingPush} change(s) to push, ${s.pendingPull} to pull`}`
      : `offline · ${s.pendingPush} change(s) waiting (${s.offlineReason ?? ''})`,
    `Last sync: ${when(s.lastSyncAt)}`,
    `Conflicts: ${s.conflicts}`,
    ...(s.online ? [`Files: ${s.files}, labelled: ${s.labelledFiles}`] : []),
  ].join('\n');
}

/** One line of a watch: JSON, or words. */
function line(json: boolean | undefined, doc: object, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(doc)}\n` : `${terminalText(text)}\n`);
}

/** `team sync --watch`: until Ctrl-C or SIGTERM, one line per sync that moved something. */
async function watch(t: ReturnType<typeof teamProjects>, json: boolean | undefined) {
  const stop = new AbortController();
  const end = () => stop.abort();
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  try {
    await t.watch(stop.signal, {
      onSync: (r) => line(json, { event: 'sync', ...r }, `Pushed ${r.pushed}, pulled ${r.pulled}.`),
      onOnline: (online, reason) =>
        line(
          json,
          { event: online ? 'online' : 'offline', reason },
          online ? 'Hub reachable again.' : `offline: ${reason ?? ''}`,
        ),
    });
  } finally {
    process.off('SIGINT', end);
    process.off('SIGTERM', end);
  }
}

function memberRole(value: string): 'lead' | 'annotator' {
  if (value !== 'lead' && value !== 'annotator') {
    throw new UsageError('--role takes lead or annotator.');
  }
  return value;
}

export function addTeamCommand(program: Command, setExit: SetExit): void {
  const team = program
    .command('team')
    .description('Share one project with a team through a PostgreSQL hub.');
  for (const verb of ['create', 'join'] as const) {
    team
      .command(verb)
      .description(
        verb === 'create'
          ? 'Create the project in the hub (your role becomes its lead; it must be able to create a schema).'
          : 'Join a project a lead added you to.',
      )
      .requiredOption(
        '--hub <url>',
        'postgresql://ROLE[:PASSWORD]@HOST[:PORT][,HOST2…]/DATABASE[?…]',
      )
      .requiredOption('--project <name>', 'the project (lower-case letters, digits, _)')
      .requiredOption('--folder <dir>', "the project's folder on this machine")
      .option('--json', 'print JSON')
      .action((o: { hub: string; project: string; folder: string; json?: boolean }) =>
        withTeam(
          setExit,
          async (t) => {
            const l = await t[verb](o);
            return o.json
              ? { project: l.project, member: l.member, role: l.role, hub: l.hub, folder: l.folder }
              : `${verb === 'create' ? 'Created' : 'Joined'} project ${l.project} on ${l.hub} as ${l.member} (${l.role}).`;
          },
          o.json,
        ),
      );
  }
  const member = team.command('member').description("Grant or revoke a role's access (lead only).");
  member
    .command('add <role>')
    .description('Grant an existing PostgreSQL role access to the project.')
    .option('--role <role>', 'lead or annotator', 'annotator')
    .action((role: string, o: { role: string }) =>
      withTeam(
        setExit,
        async (t) => {
          await t.addMember(role, memberRole(o.role));
          return `Added ${role} (${o.role}).`;
        },
        false,
      ),
    );
  member
    .command('remove <role>')
    .description("Revoke a role's access: it can no longer read or write the project.")
    .action((role: string) =>
      withTeam(
        setExit,
        async (t) =>
          (await t.removeMember(role)) ? `Removed ${role}.` : `${role} was not a member.`,
        false,
      ),
    );
  team
    .command('sync')
    .description("Push this desktop's changes and pull the others'.")
    .option('--watch', 'keep syncing (woken by the hub) until Ctrl-C')
    .option('--json', 'print JSON (with --watch: one line per event)')
    .action((o: { json?: boolean; watch?: boolean }) =>
      withTeam(
        setExit,
        async (t) => {
          const r = await t.sync();
          const s = await t.status();
          if (o.watch) {
            line(o.json, { event: 'synced', ...r, ...s }, statusText(s));
            await watch(t, o.json);
          }
          return o.json
            ? { ...r, ...s }
            : `Pushed ${r.pushed}, pulled ${r.pulled} change(s); offered ${r.answersOffered}, took ${r.answersTaken} model answer(s).\n${statusText(s)}`;
        },
        o.json,
      ),
    );
  team
    .command('status')
    .description('The project, whether the hub is reachable, what waits, and open conflicts.')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      withTeam(
        setExit,
        async (t) => {
          const s = await t.status();
          return o.json ? s : statusText(s);
        },
        o.json,
      ),
    );
  addTeamConflictCommands(team, setExit, withTeam);
  addTeamWorkCommands(team, setExit, withTeam);
  addTeamQualityCommands(team, setExit, withTeam);
  team
    .command('leave')
    .description('Leave the project on this desktop (labels stay; the hub password is forgotten).')
    .action(() =>
      withTeam(setExit, async (t) => `Left project ${(await t.leave()).project}.`, false),
    );
}
