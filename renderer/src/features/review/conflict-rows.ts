/**
 * A conflict (one object the model gave several classes) is shown as ONE row and ONE box: its
 * chosen box stands for it, named with every class ("apple / orange · conflict"). The chosen box
 * is the selected one of the conflict, else the best score; `C` keeps its class.
 */
import type { ReviewBox } from '@shared/contract/review-schemas.js';

export interface ConflictRow {
  /** The conflict's boxes, best score first. */
  members: readonly { key: string; label: string }[];
  /** How many of them an auto-accept rule accepted (the row says so: "2 by rule"). */
  byRule: number;
  /** Which member is chosen (its class is kept by `C`). */
  chosen: number;
  /** Its classes, best score first ("apple / orange"). */
  labels: string;
}

export interface MergedConflicts {
  /** The boxes shown, each conflict's other boxes left out (its chosen box stands for them). */
  rows: ReviewBox[];
  /** The same, each chosen box named with all its conflict's classes (the stage draws these). */
  drawn: ReviewBox[];
  /** By chosen box's key. */
  conflicts: Map<string, ConflictRow>;
}

export function mergeConflicts(
  shown: readonly ReviewBox[],
  groups: readonly (readonly string[])[],
  byKey: ReadonlyMap<string, ReviewBox>,
  selected: ReadonlySet<string>,
): MergedConflicts {
  const conflicts = new Map<string, ConflictRow>();
  const standIns = new Set<string>();
  const inView = new Set(shown.map((b) => b.key));
  for (const all of groups) {
    // A box the filter hides is not shown: only the conflict's shown boxes are merged.
    const group = all.filter((k) => inView.has(k));
    if (group.length < 2) continue;
    const chosen = group.find((k) => selected.has(k)) ?? group[0];
    if (chosen === undefined) continue;
    const members = group.map((key) => ({ key, label: byKey.get(key)?.label ?? '' }));
    const labels = [...new Set(members.map((m) => m.label))].join(' / ');
    const byRule = group.filter((k) => {
      const b = byKey.get(k);
      return b?.review === 'accepted' && Boolean(b.rule);
    }).length;
    conflicts.set(chosen, { members, byRule, chosen: group.indexOf(chosen), labels });
    for (const k of group) if (k !== chosen) standIns.add(k);
  }
  if (conflicts.size === 0) return { rows: [...shown], drawn: [...shown], conflicts };
  const rows = shown.filter((b) => !standIns.has(b.key));
  const drawn = rows.map((b) => {
    const c = conflicts.get(b.key);
    return c ? { ...b, label: c.labels } : b;
  });
  return { rows, drawn, conflicts };
}

/** The accessible name of a conflict's row. */
export const conflictName = (c: ConflictRow) => `${c.labels} · conflict`;
