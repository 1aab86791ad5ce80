/**
 * Conflicts a person settles (README "Working as a team", Conflicts). Settling a box is one more
 * change of it, based on every head and carrying the kept version's state: every desktop that
 * receives it finds one head again (box-versions.ts), whatever order the log reached it in. A
 * lead settles any box; an annotator only a box where one version is theirs (the hub lets every
 * member add changes under their own name, so this is the app's rule, not the database's).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Box } from '../../shared/geometry/box.js';
import type { TeamApplyPort, TeamPort } from '../store/store-ports.js';
import type { TeamChange, TeamConflictRow, TeamHead, TeamLinkRow } from '../store/team-types.js';
import { applyOwn } from './apply-changes.js';
import { fromWireFrame } from './keyframe-wire.js';
import type { FramePlace } from '../../shared/geometry/frame-place.js';

export interface TeamConflictVersion {
  change: string;
  /** Who made it; this desktop's member for a change not pushed yet. */
  member: string;
  mine: boolean;
  at: number;
  label: string | null;
  review: 'pending' | 'accepted' | 'rejected';
  deleted: boolean;
  bbox: Box | null;
}

export interface TeamConflict extends FramePlace {
  /** Short and the same on every desktop (from the box's key). */
  id: string;
  box: string;
  contentHash: string;
  solution: string;
  path: string | null;
  /** This library's correction row of the box: the review's box in conflict. */
  correctionId: number | null;
  /** Oldest first. */
  versions: TeamConflictVersion[];
  shown: string | null;
  /** Whether this member may settle it. */
  canResolve: boolean;
}

/** `mine`, `theirs` (the one other version), or a member's name. */
export type KeepChoice = string;

export interface ResolveOutcome {
  resolved: { id: string; kept: string; member: string }[];
  skipped: { id: string; reason: string }[];
}

export const conflictId = (box: string) =>
  createHash('sha256').update(box).digest('hex').slice(0, 10);

const memberOf = (h: TeamHead, me: string) => h.member ?? (h.own ? me : '?');
const isMine = (h: TeamHead, me: string) => h.own || h.member === me;

function versionOf(h: TeamHead, me: string): TeamConflictVersion {
  const s = h.state;
  return {
    change: h.id,
    member: memberOf(h, me),
    mine: isMine(h, me),
    at: h.at,
    label: s ? (s.label ?? s.anchorLabel) : null,
    review: s?.review ?? 'pending',
    deleted: s?.deleted === 1,
    bbox:
      s === null
        ? null
        : s.x !== null
          ? { x: s.x, y: s.y ?? 0, w: s.w ?? 0, h: s.h ?? 0 }
          : s.anchorX !== null
            ? { x: s.anchorX, y: s.anchorY ?? 0, w: s.anchorW ?? 0, h: s.anchorH ?? 0 }
            : null,
  };
}

function conflictOf(row: TeamConflictRow, link: TeamLinkRow): TeamConflict {
  const first = row.heads[0] as TeamHead;
  return {
    id: conflictId(row.box),
    box: row.box,
    contentHash: first.contentHash,
    solution: first.solution,
    // The heads carry the wire's frame; the view, like every record off the wire, a field.
    ...fromWireFrame(row.heads.find((h) => h.state)?.state?.frameIndex ?? 0),
    path: row.path,
    correctionId: row.correctionId,
    versions: row.heads.map((h) => versionOf(h, link.member)),
    shown: row.shown,
    canResolve: link.role === 'lead' || row.heads.some((h) => isMine(h, link.member)),
  };
}

export function listConflicts(
  store: TeamPort,
  link: TeamLinkRow,
  contentHash?: string,
): TeamConflict[] {
  return store.team.conflicts(contentHash).map((r) => conflictOf(r, link));
}

/** The head `keep` names, or why none. */
function chosen(row: TeamConflictRow, keep: KeepChoice, me: string): TeamHead | string {
  const pick = (heads: TeamHead[], what: string) =>
    heads.length === 1
      ? (heads[0] as TeamHead)
      : heads.length === 0
        ? `no version is ${what}`
        : `${heads.length} versions are ${what}: name the member to keep`;
  if (keep === 'mine')
    return pick(
      row.heads.filter((h) => isMine(h, me)),
      'yours',
    );
  if (keep === 'theirs')
    return pick(
      row.heads.filter((h) => !isMine(h, me)),
      "another member's",
    );
  const theirs = row.heads.filter((h) => memberOf(h, me) === keep);
  // A member with several versions of one box (two desktops): the latest of theirs.
  return theirs.length > 0 ? (theirs[theirs.length - 1] as TeamHead) : `no version is ${keep}'s`;
}

/**
 * Settles the named conflicts (ids, or every one this member may settle) by keeping one version
 * of each; one transaction, and the changes go out with the next sync.
 */
export function resolveConflicts(
  store: TeamApplyPort,
  link: TeamLinkRow,
  which: { ids: readonly string[] } | 'all',
  keep: KeepChoice,
  now: () => number,
): ResolveOutcome {
  const rows = store.team.conflicts();
  const byId = new Map(rows.map((r) => [conflictId(r.box), r]));
  const out: ResolveOutcome = { resolved: [], skipped: [] };
  const targets: TeamConflictRow[] = [];
  if (which === 'all') {
    for (const r of rows) {
      if (conflictOf(r, link).canResolve) targets.push(r);
    }
  } else {
    for (const id of which.ids) {
      const r = byId.get(id);
      if (!r) out.skipped.push({ id, reason: 'no open conflict has this id' });
      else if (!conflictOf(r, link).canResolve)
        out.skipped.push({ id, reason: 'none of its versions is yours; a lead can settle it' });
      else targets.push(r);
    }
  }
  const changes: TeamChange[] = [];
  for (const r of targets) {
    const id = conflictId(r.box);
    const head = chosen(r, keep, link.member);
    if (typeof head === 'string') {
      out.skipped.push({ id, reason: head });
      continue;
    }
    changes.push({
      id: randomUUID(),
      box: r.box,
      contentHash: head.contentHash,
      solution: head.solution,
      parents: r.heads.map((h) => h.id),
      state: head.state,
      at: now(),
    });
    out.resolved.push({ id, kept: head.id, member: memberOf(head, link.member) });
  }
  applyOwn(store, changes);
  return out;
}
