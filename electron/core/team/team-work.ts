/**
 * A member's work in a team project (issue 26 §2): claim files nobody else holds, see and give
 * back one's claim, and the lead's assignments, take-backs and lease. The hub decides everything
 * (hub-work.ts); this maps its files to this desktop's copies (by content: a member's folder may
 * be laid out elsewhere).
 */
import { resolve, sep } from 'node:path';
import type { MediaReader } from '../store/store-ports.js';
import { parseWorkFilter } from './work-filter.js';
import {
  assignWork,
  claimWork,
  ensureWorkSchema,
  leaseSeconds,
  myWork,
  releaseWork,
  renewWork,
  setLeaseSeconds,
  takeBackWork,
  type WorkItem,
} from './hub-work.js';
import { linkOf, withClient, type TeamDeps } from './team-project.js';

/** A held file, with this desktop's copy of it when it has one. */
export interface ClaimedFile extends WorkItem {
  /** This desktop's file of that content (under the project folder), or null. */
  path: string | null;
  mediaId: number | null;
}

export interface TeamClaim {
  /** What this call claimed (best first). */
  claimed: ClaimedFile[];
  /** Everything the member holds now, the new files included (best first). */
  holding: ClaimedFile[];
  leaseSeconds: number;
}

function withLocal(store: MediaReader, folder: string, items: readonly WorkItem[]): ClaimedFile[] {
  const wanted = new Set(items.map((i) => i.contentHash));
  const root = resolve(folder);
  const local = new Map<string, { path: string; id: number }>();
  if (wanted.size > 0) {
    for (const m of store.media.list({})) {
      if (!m.contentHash || !wanted.has(m.contentHash) || local.has(m.contentHash)) continue;
      if (m.path === root || m.path.startsWith(root + sep)) {
        local.set(m.contentHash, { path: m.path, id: m.id });
      }
    }
  }
  return items.map((i) => ({
    ...i,
    path: local.get(i.contentHash)?.path ?? null,
    mediaId: local.get(i.contentHash)?.id ?? null,
  }));
}

/** Whether a named file (a path, or a content hash) is this held one. */
const names = (f: ClaimedFile, folder: string, name: string) =>
  f.contentHash === name ||
  f.path === resolve(name) ||
  f.relPath === name ||
  resolve(folder, f.relPath) === resolve(name);

/**
 * Claims up to `count` more files (the member's live leases renewed: claiming is working). The
 * lead's connection upgrades an older hub first.
 */
export async function claimTeamWork(deps: TeamDeps, count: number): Promise<TeamClaim> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, (hub) =>
    hub.use(async (sql, s) => {
      await ensureWorkSchema(sql, hub.schema);
      await renewWork(sql, s, null);
      const claimed = count > 0 ? await claimWork(sql, s, count) : [];
      const holding = await myWork(sql, s);
      return {
        claimed: withLocal(deps.store, l.folder, claimed),
        holding: withLocal(deps.store, l.folder, holding),
        leaseSeconds: await leaseSeconds(sql, s),
      };
    }),
  );
}

/** The member's claim as the hub has it now (leases not renewed). */
export async function teamWork(deps: TeamDeps): Promise<TeamClaim> {
  return claimTeamWork(deps, 0);
}

/**
 * Gives back held files (paths or content hashes; `all`: every one). Returns how many, and the
 * names that matched nothing the member holds.
 */
export async function releaseTeamWork(
  deps: TeamDeps,
  which: readonly string[] | 'all',
): Promise<{ released: number; notHeld: string[] }> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, (hub) =>
    hub.use(async (sql, s) => {
      if (which === 'all') return { released: await releaseWork(sql, s, null), notHeld: [] };
      const held = withLocal(deps.store, l.folder, await myWork(sql, s));
      const hashes: string[] = [];
      const notHeld: string[] = [];
      for (const name of which) {
        const f = held.find((h) => names(h, l.folder, name));
        if (f) hashes.push(f.contentHash);
        else notHeld.push(name);
      }
      return { released: await releaseWork(sql, s, hashes), notHeld };
    }),
  );
}

/**
 * The lead assigns the files under `folder` (relative to the project's) that pass every filter
 * term (`kind=video`, `class=car`, `state=unreviewed`: work-filter.ts) to `member`.
 */
export async function assignTeamWork(
  deps: TeamDeps,
  member: string,
  folder: string,
  filter: readonly string[] = [],
) {
  const l = linkOf(deps.store);
  const parsed = parseWorkFilter(filter);
  return withClient(deps, l.hub, l.project, (hub) =>
    hub.use(async (sql, s) => ({ assigned: await assignWork(sql, s, member, folder, parsed) })),
  );
}

/** The lead takes back a member's assignments and unfinished claims (under a folder, or all). */
export async function takeBackTeamWork(deps: TeamDeps, member: string, folder: string | null) {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, (hub) =>
    hub.use(async (sql, s) => ({ takenBack: await takeBackWork(sql, s, member, folder) })),
  );
}

/** The lead sets the idle lease (seconds); without one, reads it. */
export async function teamLease(deps: TeamDeps, seconds?: number): Promise<number> {
  const l = linkOf(deps.store);
  return withClient(deps, l.hub, l.project, (hub) =>
    hub.use(async (sql, s) => {
      if (seconds !== undefined) await setLeaseSeconds(sql, s, seconds);
      return leaseSeconds(sql, s);
    }),
  );
}
