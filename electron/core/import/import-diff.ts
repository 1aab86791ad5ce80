/**
 * The corrections that make one file's corrected set exactly its imported labels, and none when
 * it already is. Each label takes, in order: a box already showing it (kept, accepted); else a
 * model box of the same frame overlapping it (IoU ≥ 0.5, same label preferred), which becomes
 * that label as a person's edit; else it is drawn. Model boxes left over are deleted and boxes
 * standing on corrections alone (a previous import's) are removed. One row per model box at
 * most, so the review shows how each model box was corrected, and the evaluation still reads the
 * model's own boxes untouched. Every box a label lands on is the person's (`personMade`): it
 * shows and exports no score, so no score filter drops ground truth.
 */
import { iou, sameBox } from '../../shared/geometry/box-math.js';
import type { Size } from '../export/box-geometry.js';
import { mergeCorrections, type ModelBox } from '../review/merge-corrections.js';
import type {
  BoxXYWH,
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  ReviewState,
} from '../store/store-types.js';

/** One label to show, normalised to the displayed image. */
export interface Target {
  label: string;
  frameIndex: number;
  timeMs: number | null;
  bbox: BoxXYWH;
  /** A crowd region: never put on a model box (the model found no crowd), always drawn. */
  crowd?: boolean;
  /** The COCO annotation as its file gives it (see readKeptAnnotation), stored with the box. */
  coco?: string;
}

/** A box of the file as it stands: on a model box (`model`), or on a correction alone. */
interface Current {
  frameIndex: number;
  /** A keyframe between samples (a clip frame): no imported label is on it. */
  keyframe: true | undefined;
  timeMs: number | null;
  model: ModelBox | null;
  label: string;
  bbox: BoxXYWH;
  review: ReviewState;
  deleted: boolean;
  crowd: boolean;
  /** Already the person's own box (a previous import's label on a model box). */
  personMade: boolean;
  row: CorrectionRow | undefined;
}

/** Corners closer than this (pixels of the displayed image) are the same box: exports round to 0.01. */
const SAME_PX = 0.011;
const PAIR_MIN_IOU = 0.5;

function currentBoxes(
  model: readonly DetectionRow[],
  corrections: readonly CorrectionRow[],
): Current[] {
  if (corrections.length === 0) {
    // The common case, without the merge's per-box copies.
    return model.map((m) => ({
      frameIndex: m.frameIndex,
      keyframe: undefined,
      timeMs: m.timeMs,
      model: { label: m.label, score: m.score, bbox: m.bbox },
      label: m.label,
      bbox: m.bbox,
      review: m.review,
      deleted: false,
      crowd: false,
      personMade: false,
      row: undefined,
    }));
  }
  const rows = new Map(corrections.map((c) => [c.id, c]));
  return mergeCorrections(model, corrections, { includeDeleted: true }).map((b) => ({
    frameIndex: b.frameIndex,
    keyframe: b.keyframe,
    timeMs: b.timeMs,
    model: b.detectionId === null ? null : b.model,
    label: b.label,
    bbox: b.bbox,
    review: b.review,
    deleted: b.deleted,
    crowd: b.crowd === true,
    personMade: b.correctionId !== null && rows.get(b.correctionId)?.personMade === true,
    row: b.correctionId === null ? undefined : rows.get(b.correctionId),
  }));
}

export function importDiff(
  targets: readonly Target[],
  model: readonly DetectionRow[],
  corrections: readonly CorrectionRow[],
  content: { contentHash: string; solution: string },
  size: Size,
  /** The corrections may be replaced (none, or an earlier import's): see planImport. */
  replaceable: boolean,
): CorrectionInput[] {
  const same = (t: Target, c: Current) => {
    if (t.frameIndex !== c.frameIndex || c.keyframe || t.label !== c.label) return false;
    if ((t.crowd === true) !== c.crowd) return false;
    const near = (a: number, b: number, s: number) => Math.abs(a - b) * s <= SAME_PX;
    const { x, y, w, h } = c.bbox;
    return (
      near(t.bbox.x, x, size.width) &&
      near(t.bbox.y, y, size.height) &&
      near(t.bbox.x + t.bbox.w, x + w, size.width) &&
      near(t.bbox.y + t.bbox.h, y + h, size.height)
    );
  };
  const boxes = currentBoxes(model, corrections);
  const left = new Set(targets);
  const writes: CorrectionInput[] = [];
  const write = (c: Current, label: string, bbox: BoxXYWH, deleted: boolean, t?: Target) => {
    const onModel = c.model !== null;
    // One shape for every write (no spreads): a million of them in a big import.
    writes.push({
      contentHash: content.contentHash,
      solution: content.solution,
      id: c.row ? c.row.id : undefined,
      frameIndex: c.frameIndex,
      keyframe: c.keyframe,
      timeMs: c.timeMs,
      anchor: c.row ? c.row.anchor : c.model,
      label: onModel && label === c.model?.label ? null : label,
      bbox: onModel && c.model && sameBox(bbox, c.model.bbox) ? null : bbox,
      review: deleted ? c.review : 'accepted',
      deleted,
      crowd: t ? t.crowd === true : undefined,
      coco: t?.coco,
      // A label put on a model box is the person's ground truth: no model score (issue 24).
      personMade: deleted ? undefined : true,
    });
  };
  // 1. Boxes already showing a label stay (accepted).
  const unpaired: Current[] = [];
  for (const c of boxes) {
    let t: Target | undefined;
    if (!c.deleted) {
      for (const x of left) {
        if (same(x, c)) {
          t = x;
          break;
        }
      }
    }
    if (!t) {
      unpaired.push(c);
      continue;
    }
    left.delete(t);
    // An earlier import's accepted model box is made the person's too (imported before the flag
    // existed); a person's own acceptance in the review stays theirs, untouched.
    if (c.review !== 'accepted' || (replaceable && c.model !== null && !c.personMade))
      write(c, c.label, c.bbox, false, t);
  }
  // 2. Model boxes overlapping a label become it, best overlap first.
  const pairs: { score: number; c: Current; t: Target }[] = [];
  for (const c of unpaired) {
    if (!c.model) continue;
    for (const t of left) {
      if (t.frameIndex !== c.frameIndex || c.keyframe || t.crowd) continue;
      const overlap = iou(t.bbox, c.model.bbox);
      if (overlap >= PAIR_MIN_IOU)
        pairs.push({ score: overlap + (t.label === c.model.label ? 1 : 0), c, t });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const edited = new Set<Current>();
  for (const p of pairs) {
    if (edited.has(p.c) || !left.has(p.t)) continue;
    edited.add(p.c);
    left.delete(p.t);
    write(p.c, p.t.label, p.t.bbox, false, p.t);
  }
  // 3. What is left: model boxes deleted, boxes on corrections alone removed, labels drawn.
  for (const c of unpaired) if (!edited.has(c) && !c.deleted) write(c, c.label, c.bbox, true);
  for (const t of left) {
    writes.push({
      contentHash: content.contentHash,
      solution: content.solution,
      id: undefined,
      frameIndex: t.frameIndex,
      timeMs: t.timeMs,
      anchor: null,
      label: t.label,
      bbox: t.bbox,
      review: 'accepted',
      deleted: false,
      crowd: t.crowd === true,
      coco: t.coco,
      personMade: true,
    });
  }
  return writes;
}
