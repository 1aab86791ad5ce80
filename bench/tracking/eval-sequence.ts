/**
 * One clip as TrackEval's metrics see it: per analysed frame, the true ids present, the
 * predicted ids present (both renumbered densely from 0 in order of first appearance) and the
 * IoU of every (true, predicted) pair. Frames with neither kind of box count as nothing.
 */
import { gatedAssignment } from '../../electron/core/tracking/hungarian.js';
import { iou, type NormBox } from '../../electron/shared/geometry/box-math.js';

export interface IdBox {
  frameIndex: number;
  id: number;
  bbox: NormBox;
}

export interface EvalStep {
  gt: number[];
  tracker: number[];
  /** similarity[g][t]: IoU of the step's g-th true box and t-th predicted box. */
  similarity: number[][];
}

export interface EvalSequence {
  gtIds: number;
  trackerIds: number;
  gtDets: number;
  trackerDets: number;
  steps: EvalStep[];
}

/** Machine epsilon, as TrackEval's `np.finfo('float').eps`. */
export const EPS = 2.220446049250313e-16;

export function evalSequence(truth: readonly IdBox[], predicted: readonly IdBox[]): EvalSequence {
  const gtByFrame = byFrame(truth);
  const trByFrame = byFrame(predicted);
  const frames = [...new Set([...gtByFrame.keys(), ...trByFrame.keys()])].sort((a, b) => a - b);
  const gtDense = new Map<number, number>();
  const trDense = new Map<number, number>();
  const dense = (map: Map<number, number>, id: number) => {
    let d = map.get(id);
    if (d === undefined) map.set(id, (d = map.size));
    return d;
  };
  const steps = frames.map((f) => {
    const gts = gtByFrame.get(f) ?? [];
    const trs = trByFrame.get(f) ?? [];
    return {
      gt: gts.map((b) => dense(gtDense, b.id)),
      tracker: trs.map((b) => dense(trDense, b.id)),
      similarity: gts.map((g) => trs.map((t) => iou(g.bbox, t.bbox))),
    };
  });
  return {
    gtIds: gtDense.size,
    trackerIds: trDense.size,
    gtDets: truth.length,
    trackerDets: predicted.length,
    steps,
  };
}

function byFrame(boxes: readonly IdBox[]): Map<number, IdBox[]> {
  const out = new Map<number, IdBox[]>();
  for (const b of boxes) {
    const list = out.get(b.frameIndex);
    if (list) list.push(b);
    else out.set(b.frameIndex, [b]);
  }
  return out;
}

/**
 * Row → column pairs of a maximum-total-score assignment (scipy's linear_sum_assignment on −score)
 * among pairs scoring more than 0 (both metrics drop the others), solved per group of boxes that
 * overlap: the same optimum, at a fraction of the work on a crowded frame.
 */
export function maxScorePairs(score: readonly (readonly number[])[]): [number, number][] {
  const pairs: [number, number][] = [];
  const cost = score.map((row) => row.map((s) => -s));
  gatedAssignment(cost, (r, c) => ((score[r] as number[])[c] as number) > 0).forEach((c, r) => {
    if (c >= 0) pairs.push([r, c]);
  });
  return pairs;
}

/** Adds `by` to a[i] (a counter in a typed or plain array). */
export function bump(a: Float64Array | number[], i: number, by = 1): void {
  a[i] = (a[i] as number) + by;
}
