/**
 * The corrected set: the model's boxes with a person's corrections laid over them. Pure; the same
 * function feeds the review screen, `library.item` and every export.
 *
 * How corrections attach (decided here, documented in the README under "Corrections"):
 * - To the content hash + solution, never to a file or a result row: duplicate files share them,
 *   and re-analysis (which replaces the result's detections) leaves them in place.
 * - To a model box by its *anchor*: the frame index, label, score and normalised box the model
 *   gave when the person first touched it (refreshed on every later edit). On every read each
 *   anchored correction is paired with one model box of the same frame whose box overlaps the
 *   anchor with IoU ≥ 0.9, greedily, best first, a box of the same label preferred (so an
 *   unchanged model answer pairs exactly, and a slightly moved one still pairs).
 * - A model box with no correction is `pending`. So after re-analysis new boxes are pending,
 *   while boxes the person had reviewed keep their state and edits.
 * - A deleted box the model returns again (IoU ≥ 0.9 with the deleted one) stays deleted; one that
 *   moved further is a new, pending box.
 * - A correction whose model box is gone keeps the person's work visible: an edited or reviewed
 *   box stays, standing on its anchor (origin `edited`); a deletion stays a silent tombstone.
 * - Boxes a person draws (or an import adds) have no anchor (origin `added`) and no score: no
 *   score filter removes them. A label an import put on a model box is the person's too
 *   (`personMade`): no score, though the model box stays its anchor (`model` keeps the model's
 *   score, which the evaluation reads). A box a person moved or relabelled in the review is still
 *   the model's detection, corrected: it keeps its model box's score.
 */
import { iou, sameBox, type NormBox } from '../../shared/geometry/box-math.js';
import { byPlace } from '../../shared/geometry/frame-place.js';
import type {
  DetectionOrigin,
  DetectionRow,
  MergeCorrection,
  ReviewState,
} from '../store/store-types.js';

export const ANCHOR_MIN_IOU = 0.9;

/** The model box a merged box stands on (its current detection, or the correction's anchor). */
export interface ModelBox {
  label: string;
  /** Null: the service gave none. */
  score: number | null;
  bbox: NormBox;
}

/**
 * One box as people see and export it. It is a `DetectionRow`, so export writers take it as is;
 * `id` is the model detection's id, 0 for a box with no model detection behind it.
 */
export interface MergedBox extends DetectionRow {
  /** Stable within the item: `d<detectionId>` for a model box, `c<correctionId>` otherwise. */
  key: string;
  detectionId: number | null;
  correctionId: number | null;
  model: ModelBox | null;
  deleted: boolean;
  /** The track a person put the box in (merge, split); null: the tracker's. */
  personTrack: number | null;
  /** The auto-accept rule that accepted it; null when the state is a person's (or nobody's). */
  rule: string | null;
}

export interface MergeOptions {
  /** Also return deleted boxes (flagged), e.g. for a restore list; exports leave them out. */
  includeDeleted?: boolean;
}

interface Pair {
  score: number;
  c: number;
  m: number;
}

/**
 * The common case first: every anchor finds its box unchanged (no re-analysis since, or the same
 * answer again). Gives what the greedy pairing gives then (exact pairs score highest, ties in the
 * same order), without building and sorting candidate pairs. Null when any anchor has moved.
 */
function exactPairs(
  model: readonly DetectionRow[],
  corrections: readonly MergeCorrection[],
): Map<number, number> | null {
  const byCorrection = new Map<number, number>();
  const taken = new Set<number>();
  for (let ci = 0; ci < corrections.length; ci++) {
    const a = (corrections[ci] as MergeCorrection).anchor;
    // A keyframe's frame is a clip frame: it never stands on a model box (of a sample).
    if (!a || corrections[ci]?.keyframe === true) continue;
    const frame = (corrections[ci] as MergeCorrection).frameIndex;
    let found = -1;
    for (let mi = 0; mi < model.length && found < 0; mi++) {
      const m = model[mi] as DetectionRow;
      if (
        m.frameIndex === frame &&
        m.label === a.label &&
        !taken.has(mi) &&
        sameBox(m.bbox, a.bbox)
      )
        found = mi;
    }
    if (found < 0) return null;
    byCorrection.set(ci, found);
    taken.add(found);
  }
  return byCorrection;
}

/** Pairs anchored corrections with model boxes of the same frame: correction index → model index. */
function pairAnchors(
  model: readonly DetectionRow[],
  corrections: readonly MergeCorrection[],
): Map<number, number> {
  // Clips have many frames: the exact scan is for images and small items.
  if (model.length <= 64) {
    const exact = exactPairs(model, corrections);
    if (exact) return exact;
  }
  const byFrame = new Map<number, number[]>();
  model.forEach((m, i) => {
    const list = byFrame.get(m.frameIndex);
    if (list) list.push(i);
    else byFrame.set(m.frameIndex, [i]);
  });
  const pairs: Pair[] = [];
  corrections.forEach((c, ci) => {
    if (!c.anchor || c.keyframe === true) return;
    for (const mi of byFrame.get(c.frameIndex) ?? []) {
      const m = model[mi] as DetectionRow;
      const overlap = iou(c.anchor.bbox, m.bbox);
      if (overlap < ANCHOR_MIN_IOU) continue;
      pairs.push({ score: overlap + (m.label === c.anchor.label ? 1 : 0), c: ci, m: mi });
    }
  });
  pairs.sort((a, b) => b.score - a.score || a.c - b.c || a.m - b.m);
  const byCorrection = new Map<number, number>();
  const taken = new Set<number>();
  for (const p of pairs) {
    if (byCorrection.has(p.c) || taken.has(p.m)) continue;
    byCorrection.set(p.c, p.m);
    taken.add(p.m);
  }
  return byCorrection;
}

function originOf(model: ModelBox | null, label: string, bbox: NormBox): DetectionOrigin {
  if (!model) return 'added';
  return label === model.label && sameBox(bbox, model.bbox) ? 'model' : 'edited';
}

/**
 * A model box with no correction: what most boxes of a library are. Its review is the one saved
 * with it (`pending` from a run).
 */
export function plainModelBox(m: DetectionRow): MergedBox {
  // Fields spelled out rather than spread: this runs once per box of every merged item, and a
  // literal of known shape costs a fraction of a spread (measured: evaluation of 1M boxes).
  return {
    id: m.id,
    resultId: m.resultId,
    frameIndex: m.frameIndex,
    timeMs: m.timeMs,
    label: m.label,
    classId: m.classId,
    score: m.score,
    bbox: m.bbox,
    origin: m.origin,
    review: m.review,
    key: `d${m.id}`,
    detectionId: m.id,
    correctionId: null,
    model: { label: m.label, score: m.score, bbox: m.bbox },
    deleted: false,
    personTrack: null,
    rule: null,
  };
}

export function corrected(m: DetectionRow, c: MergeCorrection): MergedBox {
  const label = c.label ?? m.label;
  const bbox = c.bbox ?? m.bbox;
  const model = { label: m.label, score: m.score, bbox: m.bbox };
  const origin = originOf(model, label, bbox);
  // Spelled out like plainModelBox: a spread of the row costs several times more (an import
  // corrects a million boxes).
  return {
    id: m.id,
    resultId: m.resultId,
    frameIndex: m.frameIndex,
    timeMs: m.timeMs,
    score: c.personMade === true ? null : m.score,
    label,
    classId: label === m.label ? m.classId : null,
    bbox,
    origin,
    review: c.review,
    key: `d${m.id}`,
    detectionId: m.id,
    correctionId: c.id,
    model,
    deleted: c.deleted,
    personTrack: c.track ?? null,
    rule: c.rule ?? null,
    crowd: c.crowd === true,
    coco: c.coco ?? null,
  };
}

/** A correction with no model box under it: a drawn box, or one whose model box is gone. */
export function standalone(c: MergeCorrection, resultId: number): MergedBox | null {
  const a = c.anchor;
  const label = c.label ?? a?.label;
  const bbox = c.bbox ?? a?.bbox;
  if (label === undefined || bbox === undefined) return null;
  return {
    id: 0,
    resultId,
    frameIndex: c.frameIndex,
    keyframe: c.keyframe,
    timeMs: c.timeMs,
    label,
    classId: null,
    score: a && c.personMade !== true ? a.score : null,
    bbox,
    origin: a ? 'edited' : 'added',
    review: c.review,
    key: `c${c.id}`,
    detectionId: null,
    correctionId: c.id,
    model: a,
    deleted: c.deleted,
    personTrack: c.track ?? null,
    rule: c.rule ?? null,
    crowd: c.crowd === true,
    coco: c.coco ?? null,
  };
}

/** Whether an orphaned correction still carries work to show (an edit or a review). */
export const carriesWork = (c: MergeCorrection): boolean =>
  c.label !== null || c.bbox !== null || c.review !== ('pending' satisfies ReviewState);

/**
 * Merges the model's boxes of one result (in frame order) with the corrections of its content and
 * solution. Returns boxes in frame order: model boxes in their order, then drawn ones per frame.
 */
export function mergeCorrections(
  model: readonly DetectionRow[],
  corrections: readonly MergeCorrection[],
  options: MergeOptions = {},
): MergedBox[] {
  const keep = (b: MergedBox) => options.includeDeleted === true || !b.deleted;
  if (corrections.length === 0) return model.map(plainModelBox);
  const paired = pairAnchors(model, corrections);
  const onModel = new Map<number, MergeCorrection>();
  for (const [ci, mi] of paired) onModel.set(mi, corrections[ci] as MergeCorrection);
  const out: MergedBox[] = [];
  model.forEach((m, mi) => {
    const c = onModel.get(mi);
    const box = c ? corrected(m, c) : plainModelBox(m);
    if (keep(box)) out.push(box);
  });
  const resultId = model[0]?.resultId ?? 0;
  let extra = false;
  corrections.forEach((c, ci) => {
    if (paired.has(ci)) return;
    if (c.anchor && !c.deleted && !carriesWork(c)) return;
    if (c.anchor && c.deleted && !options.includeDeleted) return;
    const box = standalone(c, resultId);
    if (box && keep(box)) {
      out.push(box);
      extra = true;
    }
  });
  // Stable: model boxes keep their order within a frame, drawn ones follow them.
  if (extra) out.sort(byPlace);
  return out;
}

/**
 * The same merge for exports, lean: the model rows (fresh objects the caller owns) are corrected
 * in place and deleted ones dropped, with no per-box copy (a million boxes, a million fewer
 * objects). Boxes shown are exactly those `mergeCorrections` shows, in the same order.
 */
export function mergeInPlace(
  model: DetectionRow[],
  corrections: readonly MergeCorrection[],
): DetectionRow[] {
  if (corrections.length === 0) return model;
  const paired = pairAnchors(model, corrections);
  const onModel = new Array<MergeCorrection | undefined>(model.length);
  for (const [ci, mi] of paired) onModel[mi] = corrections[ci];
  const out: DetectionRow[] = [];
  for (let mi = 0; mi < model.length; mi++) {
    const m = model[mi] as DetectionRow;
    const c = onModel[mi];
    if (c) {
      if (c.deleted) continue;
      const anchor = { label: m.label, score: m.score, bbox: m.bbox };
      if (c.label !== null && c.label !== m.label) {
        m.label = c.label;
        m.classId = null;
      }
      if (c.bbox !== null) m.bbox = c.bbox;
      m.origin = originOf(anchor, m.label, m.bbox);
      m.review = c.review;
      if (c.rule) m.rule = c.rule;
      if (c.personMade === true) m.score = null;
    }
    out.push(m);
  }
  let extra = false;
  corrections.forEach((c, ci) => {
    if (paired.has(ci) || c.deleted || (c.anchor && !carriesWork(c))) return;
    const box = standalone(c, model[0]?.resultId ?? 0);
    if (box) {
      out.push(box);
      extra = true;
    }
  });
  if (extra) out.sort(byPlace);
  return out;
}
