/**
 * Boxes of this item that another team member changed too, without seeing this desktop's change
 * (README "Working as a team", Conflicts). Each is drawn with its other versions beside it
 * (dashed, named by their member, never picked by a click) and its row in Boxes says so; the
 * `Team conflict` panel lists every version. `Shift+V` chooses a version, `V` keeps it: one
 * change in the team's log, exactly as `labeldesk team resolve` records it.
 */
import { useCallback, useMemo, useState } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import type { TeamConflictView } from '@shared/contract/index.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import type { PaintBox } from './box-painter.js';

export type TeamVersion = TeamConflictView['versions'][number];

/** A version's author as a person reads it. */
export const versionWho = (v: TeamVersion) => (v.mine ? `${v.member} (you)` : v.member);
/** A version's box in words: its class and review, or that it was deleted. */
export const versionWhat = (v: TeamVersion) =>
  v.deleted ? 'deleted' : `${v.label ?? '?'}${v.review === 'pending' ? '' : `, ${v.review}`}`;

/** The other versions of a box in conflict, painted dashed beside it (not hit by a click). */
export interface GhostBox extends PaintBox {
  ghost: true;
}

export interface TeamConflicts {
  /** By the key of this item's box in conflict. */
  byKey: ReadonlyMap<string, TeamConflictView>;
  /** Each box's conflict in words, by key ("team conflict with bob"): its row in Boxes. */
  names: ReadonlyMap<string, string>;
  /** The selected box's conflict, else the item's first (what `V` acts on). */
  of(key: string | undefined): TeamConflictView | undefined;
  /** The version `V` keeps, of a conflict (its index in `versions`). */
  chosen(c: TeamConflictView): number;
  /** Chooses the next version of the box's conflict; false when the item has none. */
  next(key: string | undefined): boolean;
  /** Keeps the chosen (or given) version; false when the item has no conflict. */
  keep(key: string | undefined, version?: number): boolean;
  busy: boolean;
  error: Error | null;
  /** The boxes drawn with the other versions of each conflict beside its box. */
  withVersions(drawn: readonly ReviewBox[]): ((ReviewBox & { who?: string }) | GhostBox)[];
}

export function useTeamConflicts(mediaId: number, boxes: readonly ReviewBox[]): TeamConflicts {
  const state = useCall('team.state', {});
  // Only asked while the project has conflicts (the badge's count, pushed by the main process).
  const open = (state.data?.conflicts ?? 0) > 0;
  const q = useCall('team.conflicts', { mediaId }, { enabled: open });
  const resolve = useCallMutation('team.resolve', ['team.conflicts', 'team.state', 'review.boxes']);
  const [picked, setPicked] = useState<ReadonlyMap<string, number>>(new Map());
  const byKey = useMemo(() => {
    const byCorrection = new Map(
      (open ? (q.data ?? []) : []).map((c) => [c.correctionId, c] as const),
    );
    const out = new Map<string, TeamConflictView>();
    for (const b of boxes) {
      const c = b.correctionId === null ? undefined : byCorrection.get(b.correctionId);
      if (c) out.set(b.key, c);
    }
    return out;
  }, [boxes, q.data, open]);
  const names = useMemo(() => {
    const out = new Map<string, string>();
    for (const [key, c] of byKey) {
      const others = [...new Set(c.versions.filter((v) => !v.mine).map((v) => v.member))];
      out.set(key, `team conflict${others.length > 0 ? ` with ${others.join(', ')}` : ''}`);
    }
    return out;
  }, [byKey]);
  const withVersions = useCallback(
    (drawn: readonly ReviewBox[]): ((ReviewBox & { who?: string }) | GhostBox)[] => {
      if (byKey.size === 0) return [...drawn];
      const out: ((ReviewBox & { who?: string }) | GhostBox)[] = [];
      for (const b of drawn) {
        const c = byKey.get(b.key);
        if (!c) {
          out.push(b);
          continue;
        }
        const shown = c.versions.find((v) => v.change === c.shown);
        // Named by whose version it shows, coloured by its class as in Boxes.
        out.push({ ...b, who: shown ? versionWho(shown) : 'team conflict' });
        for (const v of c.versions) {
          if (v.change === c.shown || v.deleted || v.bbox === null) continue;
          out.push({
            key: `team-version:${v.change}`,
            label: v.label ?? '?',
            who: versionWho(v),
            score: null,
            bbox: v.bbox,
            review: v.review,
            ghost: true,
          });
        }
      }
      return out;
    },
    [byKey],
  );
  // Until a person chooses, the version the box shows (its label and place) is the one V keeps.
  const chosen = (c: TeamConflictView) => {
    const i = picked.get(c.id) ?? c.versions.findIndex((v) => v.change === c.shown);
    return i >= 0 && i < c.versions.length ? i : 0;
  };
  const conflictOf = (key: string | undefined) =>
    (key === undefined ? undefined : byKey.get(key)) ?? [...byKey.values()][0];
  return {
    byKey,
    names,
    of: conflictOf,
    chosen,
    next(key) {
      const c = conflictOf(key);
      if (!c) return false;
      setPicked((m) => new Map(m).set(c.id, (chosen(c) + 1) % c.versions.length));
      return true;
    },
    keep(key, version) {
      const c = conflictOf(key);
      const v = c?.versions[version ?? (c ? chosen(c) : 0)];
      if (!c || !v) return false;
      if (!c.canResolve || resolve.isPending) return true;
      resolve.mutate({ ids: [c.id], keep: v.mine ? 'mine' : v.member });
      return true;
    },
    busy: resolve.isPending,
    error: resolve.error,
    withVersions,
  };
}
