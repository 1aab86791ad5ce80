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

/**
 * Working space reused from call to call (matching is synchronous, one class of one image at a
 * time): at 60 boxes per image a 6M-box evaluation makes millions of calls, and six short-lived
 * typed arrays each were most of the matching's time. Only what is returned is allocated.
 */
class Scratch {
  order = new Int32Array(64);
  flags = new Uint8Array(64);
  overlaps = new Float64Array(256);
  fit(nt: number, cells: number): void {
    if (this.order.length < nt) {
      this.order = new Int32Array(nt * 2);
      this.flags = new Uint8Array(nt * 2);
    }
    if (this.overlaps.length < cells) this.overlaps = new Float64Array(cells * 2);
  }
}
const scratch = new Scratch();
/** Bits of `Scratch.flags` per truth box (in matching order). */
const SKIP = 1;
const CROWD = 2;
const TAKEN = 4;

/** `model` must already be in score order, highest first (stable on ties). */
export function matchInClass(
  truthIn: readonly MatchTruth[],
  model: readonly NormBox[],
  ignore?: Uint8Array,
): ClassMatch {
  const nd = model.length;
  const nt = truthIn.length;
  const masks = new Uint16Array(nd);
  const ignored = new Uint16Array(nd);
  const truthAt50 = new Int32Array(nd).fill(-1);
  if (nt === 0 || nd === 0) return { masks, ignored, truthAt50 };
  scratch.fit(nt, nd * nt);
  const { order, flags, overlaps } = scratch;
  // COCO sorts the truth it counts first (stable), crowd regions and ignored boxes after.
  let n = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let g = 0; g < nt; g++) {
      const crowd = (truthIn[g] as MatchTruth).crowd === true;
      const skip = crowd || ignore?.[g] === 1;
      if (skip !== (pass === 1)) continue;
      order[n] = g;
      flags[n++] = (skip ? SKIP : 0) | (crowd ? CROWD : 0);
    }
  }
  for (let d = 0; d < nd; d++) {
    const m = model[d] as NormBox;
    for (let g = 0; g < nt; g++) {
      const t = (truthIn[order[g] as number] as MatchTruth).bbox;
      overlaps[d * nt + g] = (flags[g] as number) & CROWD ? crowdOverlap(m, t) : iou(m, t);
    }
  }
  for (let t = 0; t < IOU_THRESHOLDS.length; t++) {
    const threshold = IOU_THRESHOLDS[t] as number;
    for (let g = 0; g < nt; g++) flags[g] = (flags[g] as number) & ~TAKEN;
    for (let d = 0; d < nd; d++) {
      let best = Math.min(threshold, 1 - 1e-10);
      let m = -1;
      for (let g = 0; g < nt; g++) {
        const f = flags[g] as number;
        if (f & TAKEN && !(f & CROWD)) continue;
        // A counted match found: crowd regions and ignored boxes (sorted last) are not looked at.
        if (m > -1 && !((flags[m] as number) & SKIP) && f & SKIP) break;
        const o = overlaps[d * nt + g] as number;
        if (o < best) continue;
        best = o;
        m = g;
      }
      if (m < 0) continue;
      const f = flags[m] as number;
      if (f & SKIP) {
        ignored[d] = (ignored[d] as number) | (1 << t);
        if (!(f & CROWD)) flags[m] = f | TAKEN;
        continue;
      }
      flags[m] = f | TAKEN;
      masks[d] = (masks[d] as number) | (1 << t);
      if (t === 0) truthAt50[d] = order[m] as number;
    }
  }
  return { masks, ignored, truthAt50 };
}
