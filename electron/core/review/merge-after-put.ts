/**
 * An item's corrected boxes after one correction is stored, from its boxes before: the edited box
 * alone is merged again when nothing else can pair differently (the common case: one box moved,
 * relabelled, decided or drawn), else the whole item is merged again from the same rows in memory.
 * Either way the answer is exactly what `mergeCorrections` gives for the rows after the write.
 */
import { iou, sameBox } from '../../shared/geometry/box-math.js';
import { byPlace, placeKeyOf, samePlace } from '../../shared/geometry/frame-place.js';
import type { CorrectionRow, DetectionRow, MergeCorrection } from '../store/store-types.js';
import {
  ANCHOR_MIN_IOU,
  carriesWork,
  corrected,
  mergeCorrections,
  standalone,
  type MergedBox,
} from './merge-corrections.js';

export interface AfterPut {
  boxes: MergedBox[];
  /** The item's corrections after the write, in the store's order (frame, then id). */
  corrections: MergeCorrection[];
  /** Whether only the edited box was merged again (else the whole item was). */
  incremental: boolean;
}

const byFrameThenId = (a: MergeCorrection, b: MergeCorrection) => byPlace(a, b) || a.id - b.id;

/** Whether another model box or another correction's anchor could pair with `m` (IoU ≥ 0.9). */
function contended(
  m: DetectionRow,
  model: readonly DetectionRow[],
  others: readonly MergeCorrection[],
): boolean {
  for (const d of model)
    if (d !== m && d.frameIndex === m.frameIndex && iou(d.bbox, m.bbox) >= ANCHOR_MIN_IOU)
      return true;
  for (const c of others)
    if (c.anchor && samePlace(c, m) && iou(c.anchor.bbox, m.bbox) >= ANCHOR_MIN_IOU) return true;
  return false;
}

/** The edited box merged again alone, or undefined when the whole item must be. */
function alone(
  before: readonly MergedBox[],
  model: readonly DetectionRow[],
  box: MergedBox | undefined,
  previous: MergeCorrection | undefined,
  others: readonly MergeCorrection[],
  stored: CorrectionRow,
): MergedBox[] | undefined {
  const out = [...before];
  if (!box) {
    // A drawn box pairs with nothing: it goes after the boxes of its frame (its id is the last).
    const drawn = stored.anchor ? null : standalone(stored, model[0]?.resultId ?? 0);
    if (!drawn) return undefined;
    const place = placeKeyOf(stored);
    const next = out.findIndex((b) => placeKeyOf(b) > place);
    out.splice(next < 0 ? out.length : next, 0, drawn);
    return out;
  }
  const at = before.indexOf(box);
  if (at < 0 || !samePlace(box, stored)) return undefined;
  if (box.correctionId !== (previous ? stored.id : null)) return undefined;
  if (box.detectionId !== null) {
    // On a model box whose anchor is now that box exactly: it pairs with it, and nothing else can.
    const m = model.find((d) => d.id === box.detectionId);
    const a = stored.anchor;
    if (!m || !a || m.label !== a.label || !sameBox(m.bbox, a.bbox) || contended(m, model, others))
      return undefined;
    out[at] = corrected(m, stored);
    return out;
  }
  // A drawn box, or an orphan (its model box gone) keeping its anchor: it pairs with nothing still.
  const p = previous?.anchor ?? null;
  const a = stored.anchor;
  if (
    p !== a &&
    (!p || !a || p.label !== a.label || p.score !== a.score || !sameBox(p.bbox, a.bbox))
  )
    return undefined;
  const shown =
    a && !stored.deleted && !carriesWork(stored) ? null : standalone(stored, box.resultId);
  if (shown) out[at] = shown;
  else out.splice(at, 1);
  return out;
}

/**
 * `before`: `mergeCorrections(model, corrections)` with `includeDeleted` (the item's
 * boxes as planned on); `box`: the one of them the edit changed (none for a drawn box);
 * `stored`: the correction as the store wrote it.
 */
export function mergeAfterPut(
  before: readonly MergedBox[],
  model: readonly DetectionRow[],
  corrections: readonly MergeCorrection[],
  box: MergedBox | undefined,
  stored: CorrectionRow,
): AfterPut {
  const previous = corrections.find((c) => c.id === stored.id);
  const others = corrections.filter((c) => c.id !== stored.id);
  const after = [...others, stored].sort(byFrameThenId);
  const boxes = alone(before, model, box, previous, others, stored);
  if (boxes) return { boxes, corrections: after, incremental: true };
  return {
    boxes: mergeCorrections(model, after, { includeDeleted: true }),
    corrections: after,
    incremental: false,
  };
}
