/**
 * One clip as TrackEval's metrics see it: per analysed frame, the true ids present, the
 * predicted ids present (both renumbered densely from 0 in order of first appearance) and the
 * IoU of every (true, predicted) pair. Frames with neither kind of box count as nothing.
 */
import { minCostAssignment } from '../../electron/core/tracking/hungarian.js';
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
 * among pairs scoring more than 0 (both metrics drop the others). Solved per connected group of
 * rows and columns that share such pairs: the same optimum, at a fraction of the work on a
 * crowded frame where each box overlaps only its neighbours.
 */
export function maxScorePairs(score: readonly (readonly number[])[]): [number, number][] {
  const rows = score.length;
  const cols = rows ? (score[0] as readonly number[]).length : 0;
  // Union-find over rows (0..rows-1) and columns (rows..rows+cols-1).
  const parent = Int32Array.from({ length: rows + cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  score.forEach((row, r) =>
    row.forEach((v, c) => {
      if (v > 0) parent[find(r)] = find(rows + c);
    }),
  );
  const groups = new Map<number, { rows: number[]; cols: number[] }>();
  const groupOf = (i: number) => {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { rows: [], cols: [] }));
    return g;
  };
  score.forEach((row, r) => {
    if (row.some((v) => v > 0)) groupOf(r).rows.push(r);
  });
  for (let c = 0; c < cols; c++)
    if (score.some((row) => (row[c] as number) > 0)) groupOf(rows + c).cols.push(c);
  const pairs: [number, number][] = [];
  for (const g of groups.values()) {
    const cost = g.rows.map((r) => g.cols.map((c) => -((score[r] as number[])[c] as number)));
    minCostAssignment(cost).forEach((k, i) => {
      const r = g.rows[i] as number;
      const c = g.cols[k] as number;
      if (k >= 0 && ((score[r] as number[])[c] as number) > 0) pairs.push([r, c]);
    });
  }
  return pairs;
}

/** Adds `by` to a[i] (a counter in a typed or plain array). */
export function bump(a: Float64Array | number[], i: number, by = 1): void {
  a[i] = (a[i] as number) + by;
}
