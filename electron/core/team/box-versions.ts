/**
 * The rule for concurrent changes to one box (README "Working as a team"). Each change names the
 * changes of the box it was based on (`parents`, the box's version its author saw). The box's
 * heads are the changes no other change was based on: one head is the box's state; two or more
 * are a conflict (two people changed the box without seeing each other's change), kept with every
 * version. The box then shows the head with the greatest id, an arbitrary but shared pick, until
 * a person's next change of the box, based on all the heads, settles it. Everything here is a
 * function of the SET of changes, so every desktop reaches the same state whatever the order they
 * arrived in.
 */
import type { TeamChange } from '../store/team-types.js';

export interface BoxVersion {
  /** Sorted ids; more than one is a conflict. */
  heads: string[];
  /** The change whose state the box shows. */
  shown: TeamChange;
}

export function boxVersion(changes: readonly TeamChange[]): BoxVersion {
  if (changes.length === 0) throw new Error('a box without changes has no version');
  const based = new Set(changes.flatMap((c) => c.parents));
  const heads = changes.filter((c) => !based.has(c.id));
  // A cycle cannot be made (a change names only changes that existed before it); if a damaged
  // log had one, every change of the box counts as a head: a conflict, shown, never hidden.
  const candidates = heads.length > 0 ? heads : [...changes];
  const sorted = [...new Map(candidates.map((c) => [c.id, c])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return { heads: sorted.map((c) => c.id), shown: sorted[sorted.length - 1] as TeamChange };
}
