/**
 * COCO's matching of one image's model boxes to its truth boxes of one class: the model boxes in
 * score order (highest first), each taking the still-free truth box it overlaps most, if that
 * overlap reaches the threshold (on equal overlaps the later truth box, as COCO's loop does).
 */
import { iou, type NormBox } from '../../shared/geometry/box-math.js';
import { IOU_THRESHOLDS } from './coco-thresholds.js';

export interface ClassMatch {
  /** Per model box, bit t set when it is a true positive at IOU_THRESHOLDS[t]. */
  masks: Uint16Array;
  /** Per model box, the truth box it matched at IoU 0.5, or -1. */
  truthAt50: Int32Array;
}

/** `model` must already be in score order, highest first (stable on ties). */
export function matchInClass(truth: readonly NormBox[], model: readonly NormBox[]): ClassMatch {
  const nt = truth.length;
  const masks = new Uint16Array(model.length);
  const truthAt50 = new Int32Array(model.length).fill(-1);
  if (nt === 0) return { masks, truthAt50 };
  const overlaps = new Float64Array(model.length * nt);
  for (let d = 0; d < model.length; d++) {
    for (let g = 0; g < nt; g++)
      overlaps[d * nt + g] = iou(model[d] as NormBox, truth[g] as NormBox);
  }
  const taken = new Uint8Array(nt);
  IOU_THRESHOLDS.forEach((threshold, t) => {
    taken.fill(0);
    for (let d = 0; d < model.length; d++) {
      let best = Math.min(threshold, 1 - 1e-10);
      let m = -1;
      for (let g = 0; g < nt; g++) {
        const o = overlaps[d * nt + g] as number;
        if (taken[g] || o < best) continue;
        best = o;
        m = g;
      }
      if (m < 0) continue;
      taken[m] = 1;
      masks[d] = (masks[d] as number) | (1 << t);
      if (t === 0) truthAt50[d] = m;
    }
  });
  return { masks, truthAt50 };
}
