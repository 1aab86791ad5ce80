/**
 * A library's team project: create or join it, add and remove members, sync, status, leave. The
 * CLI (and later the app's Team screen) call these; the hub's password lives in the OS keychain
 * (under the address without it), never in the library, the hub or a log.
 */
import { relative, resolve, sep } from 'node:path';
import type { SecureStore } from '../credentials/secure-store.js';
import type { LibraryStore } from '../store/store-types.js';
import type { TeamLinkRow } from '../store/team-types.js';
import { HubClient, type HubFile } from './hub-client.js';
import { ensureQuality } from './hub-quality.js';
import { hubAccount, parseHubUrl } from './hub-url.js';
import { addProjectMember, ensureAdmin, removeProjectMember } from './hub-admin.js';
import { recordPendingSettlements } from './pending-settlements.js';
import { ensureWorkSchema } from './hub-work.js';
import { TeamError } from './team-errors.js';
import {
  listConflicts,
  resolveConflicts,
  type KeepChoice,
  type ResolveOutcome,
  type TeamConflict,
} from './resolve-conflicts.js';
import { shareAnswers } from './share-answers.js';
import { pullByLane } from './pull-lanes.js';
import { startPullThread } from './pull-thread.js';
import { startSyncEngine, type SyncEngineOptions } from './sync-engine.js';
import { syncMarks } from './team-marks-sync.js';
import { syncChanges } from './team-sync.js';

export interface TeamDeps {
  store: LibraryStore;
  secrets: SecureStore;
  now: () => number;
}

export interface TeamStatus {
  project: string;
  member: string;
  role: 'lead' | 'annotator';
  hub: string;
  online: boolean;
  /** Why the hub could not be reached, when offline. */
  offlineReason: string | null;
  pendingPush: number;
  /** Changes in the hub not applied here yet; null when offline. */
  pendingPull: number | null;
  lastSyncAt: number | null;
  conflicts: number;
  files: number | null;
  labelledFiles: number | null;
}

export interface TeamLinkOptions {
  hub: string;
  project: string;
  folder: string;
  /** Typed apart from the address (the Team screen); it goes to the keychain as one in the URL. */
  password?: string;
}

export function linkOf(store: LibraryStore): TeamLinkRow {
  const link = store.team.link();
  if (!link) {
    throw new TeamError(
      'no_project',
      'This library is in no team project (`labeldesk team create` or `team join`).',
    );
  }
  return link;
}

async function clientFor(deps: TeamDeps, address: string, project: string): Promise<HubClient> {
  const password = await deps.secrets.get(hubAccount(address));
  return new HubClient({ address, password, project });
}

export async function withClient<T>(
  deps: TeamDeps,
  address: string,
  project: string,
  work: (hub: HubClient) => Promise<T>,
): Promise<T> {
  const hub = await clientFor(deps, address, project);
  try {
    return await work(hub);
  } finally {
    await hub.close();
  }
}

/** The library's hashed files under the project folder, by path relative to it (`/`-separated). */
function filesUnder(store: LibraryStore, folder: string): HubFile[] {
  const root = resolve(folder);
  const files: HubFile[] = [];
  for (const m of store.media.list({})) {
    if (!m.contentHash || !(m.path === root || m.path.startsWith(root + sep))) continue;
    files.push({
      contentHash: m.contentHash,
      relPath: relative(root, m.path).split(sep).join('/'),
      size: m.size,
      kind: m.kind,
      width: m.width,
      height: m.height,
    });
  }
  return files;
}

async function link(
  deps: TeamDeps,
  options: TeamLinkOptions,
  create: boolean,
): Promise<TeamLinkRow> {
  const existing = deps.store.team.link();
  if (existing) {
    throw new TeamError(
      'already_in_project',
      `This library is already in project "${existing.project}" (\`labeldesk team leave\` first).`,
    );
  }
  const url = parseHubUrl(options.hub);
  // The password moves to the keychain before anything else: nothing below ever sees it stored.
  const password = options.password ?? url.password;
  if (password !== undefined) await deps.secrets.set(hubAccount(url.address), password);
  const folder = resolve(options.folder);
  const me = await withClient(deps, url.address, options.project, async (hub) => {
    if (create) await hub.createProject(options.project, folder);
    const who = await hub.whoAmI();
    await hub.use((sql) => ensureWorkSchema(sql, hub.schema));
    await ensureQuality(hub);
    if (who.role === 'lead') await hub.upgrade();
    await ensureAdmin(hub);
    await hub.addFiles(filesUnder(deps.store, folder));
    return who;
  }).catch(async (err: unknown) => {
    // A password the hub refused is not kept: the next attempt starts clean.
    if (password !== undefined && err instanceof TeamError && err.code === 'bad_login') {
      await deps.secrets.delete(hubAccount(url.address));
    }
    throw err;
  });
  deps.store.team.setLink(
    { hub: url.address, project: options.project, folder, member: me.member, role: me.role },
    deps.now(),
  );
  return linkOf(deps.store);
}

export const createTeamProject = (deps: TeamDeps, options: TeamLinkOptions) =>
  link(deps, options, true);

export const joinTeamProject = (deps: TeamDeps, options: TeamLinkOptions) =>
  link(deps, options, false);

export async function addTeamMember(
  deps: TeamDeps,
  role: string,
  memberRole: 'lead' | 'annotator' = 'annotator',
): Promise<void> {
  const l = linkOf(deps.store);
  await withClient(deps, l.hub, l.project, async (hub) => {
    await addProjectMember(hub, role, memberRole);
  });
}

/** False when the role was no member. */
export async function removeTeamMember(deps: TeamDeps, role: string): Promise<boolean> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, async (hub) => {
    return removeProjectMember(hub, role);
  });
}

/** Pushes this desktop's changes, then pulls and applies the others'. */
export async function syncTeamProject(
  deps: TeamDeps,
): Promise<
  { pushed: number; pulled: number; answersOffered: number; answersTaken: number } & Awaited<
    ReturnType<typeof syncMarks>
  >
> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, async (hub) => {
    await ensureQuality(hub);
    if (l.role === 'lead') await hub.upgrade();
    const files = filesUnder(deps.store, l.folder);
    await hub.use((sql) => ensureWorkSchema(sql, hub.schema));
    await ensureAdmin(hub);
    await hub.addFiles(files);
    // Answers first: a pulled correction of a model box then finds the box it corrects.
    const answers = await shareAnswers(deps.store, hub, files);
    const changes = await syncChanges(deps.store, hub, deps.now);
    // A lead's settlement that waited (the hub was away): after its changes went out.
    await recordPendingSettlements(deps.store, hub, l.project);
    const marks = await syncMarks(deps.store, hub);
    return { ...changes, ...marks, answersOffered: answers.offered, answersTaken: answers.taken };
  });
}

export async function teamStatus(deps: TeamDeps): Promise<TeamStatus> {
  const l = linkOf(deps.store);
  const local = deps.store.team.counts();
  const base = {
    project: l.project,
    member: l.member,
    role: l.role,
    hub: l.hub,
    pendingPush: local.pendingPush,
    lastSyncAt: l.lastSyncAt,
    conflicts: local.conflicts,
  };
  try {
    const hubCounts = await withClient(deps, l.hub, l.project, async (hub) => {
      await hub.whoAmI();
      return hub.counts(l.pullCursor);
    });
    return { ...base, online: true, offlineReason: null, ...hubCounts };
  } catch (err) {
    if (!(err instanceof TeamError) || err.code !== 'hub_unreachable') throw err;
    return {
      ...base,
      online: false,
      offlineReason: err.message,
      pendingPull: null,
      files: null,
      labelledFiles: null,
    };
  }
}

/** The boxes in conflict on this desktop (of one content, or all). */
export const teamConflicts = (deps: TeamDeps, contentHash?: string): TeamConflict[] =>
  listConflicts(deps.store, linkOf(deps.store), contentHash);

/** Settles conflicts here; the settling changes go out with the next sync. */
export const resolveTeamConflicts = (
  deps: TeamDeps,
  which: { ids: readonly string[] } | 'all',
  keep: KeepChoice,
): ResolveOutcome => resolveConflicts(deps.store, linkOf(deps.store), which, keep, deps.now);

/** Leaves the project on this desktop: the library keeps its labels; the keychain forgets the hub. */
export async function leaveTeamProject(deps: TeamDeps): Promise<{ project: string }> {
  const l = linkOf(deps.store);
  deps.store.team.unlink();
  await deps.secrets.delete(hubAccount(l.hub));
  return { project: l.project };
}

/**
 * Keeps the library in step with the project until `signal` aborts (or a failure that is not the
 * hub being away, which rejects): `team sync --watch`, and later the app's main process.
 */
export async function watchTeamProject(
  deps: TeamDeps,
  signal: AbortSignal,
  tell: Pick<SyncEngineOptions, 'onSync' | 'onOnline'>,
): Promise<void> {
  const l = linkOf(deps.store);
  // Long pulls are applied on a thread of their own: the app's loop never waits on them.
  const password = await deps.secrets.get(hubAccount(l.hub));
  const puller = startPullThread({
    file: deps.store.file,
    hub: { address: l.hub, password, project: l.project },
  });
  await withClient(deps, l.hub, l.project, async (hub) => {
    let failed: ((err: unknown) => void) | undefined;
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const engine = startSyncEngine({
      store: deps.store,
      hub,
      now: deps.now,
      ...tell,
      ...(puller ? { pull: pullByLane(deps.store, hub, deps.now, () => puller.pull()) } : {}),
      also: {
        sync: () => syncMarks(deps.store, hub),
        waiting: () => deps.store.team.marks.outbox(1).length > 0,
      },
      onError: (err) => failed?.(err),
    });
    const aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      await Promise.race([aborted, failure]);
    } finally {
      await engine.stop();
    }
  }).finally(() => puller?.close());
}
