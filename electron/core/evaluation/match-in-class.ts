/**
 * COCO's matching of one image's model boxes to its truth boxes of one class: the model boxes in
 * score order (highest first), each taking the still-free truth box it overlaps most, if that
 * overlap reaches the threshold (on equal overlaps the later truth box, as COCO's loop does).
 *
 * Crowd regions (COCO's `iscrowd`) are looked at after the ordinary truth boxes: a model box that
 * found no ordinary box but covers a crowd region enough (overlap = intersection / the model box's
 * own area, COCO's rule for crowds) is *ignored*, neither right nor wrong. A crowd region is never
 * used up: any number of model boxes can fall in it.
 *
 * `ignore` marks further truth boxes COCO ignores (outside an area range): looked at after the
 * ordinary ones like crowd regions, and a model box matched to one is ignored, but one is used up
 * by its match and overlaps by IoU, as COCO's `_ignore` flag does.
 */
import { iou, type NormBox } from '../../shared/geometry/box-math.js';
import { IOU_THRESHOLDS } from './coco-thresholds.js';

export interface ClassMatch {
  /** Per model box, bit t set when it is a true positive at IOU_THRESHOLDS[t]. */
  masks: Uint16Array;
  /** Per model box, bit t set when it fell in a crowd region at IOU_THRESHOLDS[t] (ignored). */
  ignored: Uint16Array;
  /** Per model box, the truth box (index into `truth`) it matched at IoU 0.5, or -1. */
  truthAt50: Int32Array;
}

/** A truth box as matching needs it: the box, and whether it is a crowd region. */
export interface MatchTruth {
  bbox: NormBox;
  crowd?: boolean;
}

/** COCO's overlap with a crowd region: the part of the model box inside it. */
function crowdOverlap(d: NormBox, g: NormBox): number {
  const ix = Math.min(d.x + d.w, g.x + g.w) - Math.max(d.x, g.x);
  const iy = Math.min(d.y + d.h, g.y + g.h) - Math.max(d.y, g.y);
  if (ix <= 0 || iy <= 0) return 0;
  const area = d.w * d.h;
  return area > 0 ? (ix * iy) / area : 0;
}

/** `model` must already be in score order, highest first (stable on ties). */
export function matchInClass(
  truthIn: readonly MatchTruth[],
  model: readonly NormBox[],
  ignore?: Uint8Array,
): ClassMatch {
  const ignoredIn = (g: number) => Number(truthIn[g]?.crowd === true || ignore?.[g] === 1);
  // COCO sorts the truth it counts first (stable), crowd regions and ignored boxes after.
  const order = truthIn.map((_, g) => g);
  order.sort((a, b) => ignoredIn(a) - ignoredIn(b));
  const truth = order.map((g) => truthIn[g] as MatchTruth);
  const skip = Uint8Array.from(order, ignoredIn);
  const nt = truth.length;
  const masks = new Uint16Array(model.length);
  const ignored = new Uint16Array(model.length);
  const truthAt50 = new Int32Array(model.length).fill(-1);
  if (nt === 0) return { masks, ignored, truthAt50 };
  const crowd = Uint8Array.from(truth, (t) => (t.crowd ? 1 : 0));
  const overlaps = new Float64Array(model.length * nt);
  for (let d = 0; d < model.length; d++) {
    for (let g = 0; g < nt; g++) {
      const t = truth[g] as MatchTruth;
      const m = model[d] as NormBox;
      overlaps[d * nt + g] = crowd[g] ? crowdOverlap(m, t.bbox) : iou(m, t.bbox);
    }
  }
  const taken = new Uint8Array(nt);
  IOU_THRESHOLDS.forEach((threshold, t) => {
    taken.fill(0);
    for (let d = 0; d < model.length; d++) {
      let best = Math.min(threshold, 1 - 1e-10);
      let m = -1;
      for (let g = 0; g < nt; g++) {
        if (taken[g] && !crowd[g]) continue;
        // A counted match found: crowd regions and ignored boxes (sorted last) are not looked at.
        if (m > -1 && !skip[m] && skip[g]) break;
        const o = overlaps[d * nt + g] as number;
        if (o < best) continue;
        best = o;
        m = g;
      }
      if (m < 0) continue;
      if (skip[m]) {
        ignored[d] = (ignored[d] as number) | (1 << t);
        if (!crowd[m]) taken[m] = 1;
        continue;
      }
      taken[m] = 1;
      masks[d] = (masks[d] as number) | (1 << t);
      if (t === 0) truthAt50[d] = order[m] as number;
    }
  });
  return { masks, ignored, truthAt50 };
}
