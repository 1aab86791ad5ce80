/**
 * Multi-select in the grid, as pure steps: a click replaces, toggles or extends the selection;
 * ranges are asked of the library by position (their items may not be loaded). The selection is
 * one Set of ids, never an array of 100k objects.
 */

export interface Selection {
  ids: ReadonlySet<number>;
  /** Grid position of the last plain or toggle click: the fixed end of a shift range. */
  anchor: number | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

export type ClickIntent = 'replace' | 'toggle' | 'range' | 'range-add';

/** Shift extends, Ctrl/Cmd toggles, both add a range to what is there. */
export function clickIntent(mods: { shift: boolean; ctrlOrMeta: boolean }): ClickIntent {
  if (mods.shift) return mods.ctrlOrMeta ? 'range-add' : 'range';
  return mods.ctrlOrMeta ? 'toggle' : 'replace';
}

export function replaceWith(id: number, index: number): Selection {
  return { ids: new Set([id]), anchor: index };
}

export function toggle(sel: Selection, id: number, index: number): Selection {
  const ids = new Set(sel.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: index };
}

/** The positions a shift-click covers, as an offset and a limit for `library.ids`. */
export function rangeBetween(
  anchor: number | null,
  index: number,
): { offset: number; limit: number } {
  const from = anchor ?? index;
  const offset = Math.min(from, index);
  return { offset, limit: Math.abs(index - from) + 1 };
}

/** Applies a range's ids: replacing keeps the anchor, so the next shift-click pivots on it. */
export function withRange(sel: Selection, rangeIds: readonly number[], add: boolean): Selection {
  const ids = add ? new Set(sel.ids) : new Set<number>();
  for (const id of rangeIds) ids.add(id);
  return { ids, anchor: sel.anchor };
}
