/**
 * COCO's average precision of one class from its model boxes over all images: boxes in score
 * order (stable, so ties keep image order), cumulative precision made non-increasing from the
 * right, then read at the 101 recall points (0 past the highest recall reached). A box ignored at
 * a threshold (it fell in a crowd region) is left out there, as COCO leaves out its dtIg.
 */
import { IOU_THRESHOLDS, RECALL_POINTS } from './coco-thresholds.js';

export interface ClassPrecision {
  /** AP at each IoU threshold, -1 each when there is no truth box. */
  apByThreshold: number[];
  /** Interpolated precision at the 101 recall points at IoU 0.5 ([] with no truth box). */
  curve: number[];
}

/** numpy's spacing(1): COCO adds it to precision's denominator. */
const EPS = 2 ** -52;

function interpolatedPrecision(
  sortedMasks: Uint16Array,
  sortedIgnored: Uint16Array,
  bit: number,
  truthCount: number,
) {
  const recall = new Float64Array(sortedMasks.length);
  const precision = new Float64Array(sortedMasks.length);
  let tp = 0;
  let n = 0;
  for (let i = 0; i < sortedMasks.length; i++) {
    if ((sortedIgnored[i] as number) & bit) continue;
    if ((sortedMasks[i] as number) & bit) tp++;
    recall[n] = tp / truthCount;
    precision[n] = tp / (n + 1 + EPS);
    n++;
  }
  for (let i = n - 1; i > 0; i--) {
    if ((precision[i] as number) > (precision[i - 1] as number))
      precision[i - 1] = precision[i] as number;
  }
  const points: number[] = [];
  let i = 0;
  for (const r of RECALL_POINTS) {
    while (i < n && (recall[i] as number) < r) i++;
    points.push(i < n ? (precision[i] as number) : 0);
  }
  return points;
}

export function classPrecision(
  scores: readonly number[],
  masks: readonly number[],
  truthCount: number,
  ignored: readonly number[] = [],
): ClassPrecision {
  if (truthCount === 0) return { apByThreshold: IOU_THRESHOLDS.map(() => -1), curve: [] };
  const order = scores
    .map((_, i) => i)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number));
  const sortedMasks = Uint16Array.from(order, (i) => masks[i] as number);
  const sortedIgnored = Uint16Array.from(order, (i) => ignored[i] ?? 0);
  let curve: number[] = [];
  const apByThreshold = IOU_THRESHOLDS.map((_, t) => {
    const points = interpolatedPrecision(sortedMasks, sortedIgnored, 1 << t, truthCount);
    if (t === 0) curve = points;
    return points.reduce((s, p) => s + p, 0) / points.length;
  });
  return { apByThreshold, curve };
}
