/**
 * Which tracks are selected in the `Tracks` list, by id (a sort or a refetch moves them, the ids
 * stay), and the active one: the track last clicked or walked to, which `[` `]`, Split and the
 * picture follow. Clicks follow the library grid's rules (selection.ts).
 */
import { clickIntent } from '../library/selection.js';

export interface TrackSelection {
  ids: ReadonlySet<number>;
  active: number | null;
}

export const NO_TRACKS: TrackSelection = { ids: new Set(), active: null };

export function onlyTrack(id: number): TrackSelection {
  return { ids: new Set([id]), active: id };
}

/** A click on the track at `index` of `order` (ids in list order), with its modifier keys. */
export function pickTrack(
  sel: TrackSelection,
  order: readonly number[],
  index: number,
  mods: { shift: boolean; ctrlOrMeta: boolean },
): TrackSelection {
  const id = order[index];
  if (id === undefined) return sel;
  const intent = clickIntent(mods);
  if (intent === 'replace') return onlyTrack(id);
  if (intent === 'toggle') {
    const ids = new Set(sel.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, active: id };
  }
  const from = sel.active === null ? -1 : order.indexOf(sel.active);
  const [lo, hi] = from === -1 ? [index, index] : [Math.min(from, index), Math.max(from, index)];
  const ids = new Set(intent === 'range-add' ? sel.ids : []);
  for (const t of order.slice(lo, hi + 1)) ids.add(t);
  // The range pivots on the active track: the next Shift+click extends from it again.
  return { ids, active: sel.active ?? id };
}

/** The selection without tracks no longer there (merged into another, deleted). */
export function keepExisting(sel: TrackSelection, exists: (id: number) => boolean): TrackSelection {
  const ids = [...sel.ids].filter(exists);
  if (ids.length === sel.ids.size && (sel.active === null || exists(sel.active))) return sel;
  return {
    ids: new Set(ids),
    active: sel.active !== null && exists(sel.active) ? sel.active : null,
  };
}

/**
 * The tracks of the boxes a person picked on the picture or in the Boxes list: those become the
 * selected tracks (none when no picked box is in a track). The active one is a track just added,
 * else the active one if still picked.
 */
export function tracksOfBoxes(
  sel: TrackSelection,
  picked: readonly { trackId: number | null }[],
): TrackSelection {
  const ids = new Set<number>();
  for (const b of picked) if (b.trackId !== null) ids.add(b.trackId);
  if (ids.size === 0) return NO_TRACKS;
  const added = [...ids].find((id) => !sel.ids.has(id));
  const kept = sel.active !== null && ids.has(sel.active) ? sel.active : null;
  return { ids, active: added ?? kept ?? ([...ids][0] as number) };
}
