/**
 * HOTA (Luiten et al. 2021) as TrackEval (trackeval/metrics/hota.py) computes it, written here
 * from its definition. For each localisation threshold alpha in 0.05, 0.10, … 0.95:
 * - every (true id, predicted id) pair first gets a global alignment: the Jaccard index of their
 *   trajectories, where each frame counts the pair's IoU normalised against the other boxes in it;
 * - per frame, boxes are paired to maximise alignment × IoU (Hungarian), and pairs with IoU ≥ alpha
 *   are detection true positives (TP), the rest misses (FN) and false boxes (FP);
 * - AssA is the mean over TPs of the Jaccard index of the matched ids' trajectories;
 * - DetA = TP / (TP + FN + FP), HOTA = √(DetA · AssA), LocA the mean IoU of the TPs.
 * The reported HOTA, DetA, AssA, LocA are the means over the 19 alphas.
 */
import { EPS, bump, maxScorePairs, type EvalSequence } from './eval-sequence.js';

/** np.arange(0.05, 0.99, 0.05): start + i·step. */
export const ALPHAS = Array.from({ length: 19 }, (_, i) => 0.05 + i * 0.05);

/** Per alpha; AssA and LocA are per-TP means, so several clips combine them weighted by TP. */
export interface HotaCounts {
  tp: number[];
  fn: number[];
  fp: number[];
  assA: number[];
  locA: number[];
}

export interface HotaScore {
  hota: number;
  detA: number;
  assA: number;
  locA: number;
}

export function hotaCounts(seq: EvalSequence): HotaCounts {
  const zeros = () => ALPHAS.map(() => 0);
  const ones = () => ALPHAS.map(() => 1);
  const res: HotaCounts = { tp: zeros(), fn: zeros(), fp: zeros(), assA: zeros(), locA: zeros() };
  if (seq.trackerDets === 0) return { ...res, fn: ALPHAS.map(() => seq.gtDets), locA: ones() };
  if (seq.gtDets === 0) return { ...res, fp: ALPHAS.map(() => seq.trackerDets), locA: ones() };
  const nT = seq.trackerIds;
  const potential = new Float64Array(seq.gtIds * nT);
  const gtCount = new Float64Array(seq.gtIds);
  const trCount = new Float64Array(nT);
  for (const { gt, tracker, similarity } of seq.steps) {
    const colSum = tracker.map((_, j) => similarity.reduce((s, row) => s + (row[j] as number), 0));
    similarity.forEach((row, i) => {
      const rowSum = row.reduce((s, v) => s + v, 0);
      row.forEach((sim, j) => {
        const denom = (colSum[j] as number) + rowSum - sim;
        if (sim > 0 && denom > EPS)
          bump(potential, (gt[i] as number) * nT + (tracker[j] as number), sim / denom);
      });
    });
    for (const g of gt) bump(gtCount, g);
    for (const t of tracker) bump(trCount, t);
  }
  const alignment = (g: number, t: number) => {
    const p = potential[g * nT + t] as number;
    return p / ((gtCount[g] as number) + (trCount[t] as number) - p);
  };
  const matches = ALPHAS.map(() => new Float64Array(seq.gtIds * nT));
  for (const { gt, tracker, similarity } of seq.steps) {
    if (gt.length === 0 || tracker.length === 0) {
      ALPHAS.forEach((_, a) => {
        bump(res.fp, a, tracker.length);
        bump(res.fn, a, gt.length);
      });
      continue;
    }
    const score = similarity.map((row, i) =>
      row.map((sim, j) => alignment(gt[i] as number, tracker[j] as number) * sim),
    );
    const pairs = maxScorePairs(score);
    ALPHAS.forEach((alpha, a) => {
      let n = 0;
      for (const [i, j] of pairs) {
        const sim = (similarity[i] as number[])[j] as number;
        if (sim < alpha - EPS) continue;
        n++;
        bump(res.locA, a, sim);
        bump(matches[a] as Float64Array, (gt[i] as number) * nT + (tracker[j] as number));
      }
      bump(res.tp, a, n);
      bump(res.fn, a, gt.length - n);
      bump(res.fp, a, tracker.length - n);
    });
  }
  ALPHAS.forEach((_, a) => {
    let sum = 0;
    (matches[a] as Float64Array).forEach((m, k) => {
      if (m === 0) return;
      const union = (gtCount[Math.floor(k / nT)] as number) + (trCount[k % nT] as number) - m;
      sum += (m * m) / Math.max(1, union);
    });
    res.assA[a] = sum / Math.max(1, res.tp[a] as number);
    res.locA[a] = Math.max(1e-10, res.locA[a] as number) / Math.max(1e-10, res.tp[a] as number);
  });
  return res;
}

/** Several clips' counts as one (TrackEval's combine_sequences). */
export function combineHota(all: readonly HotaCounts[]): HotaCounts {
  const sum = (k: 'tp' | 'fn' | 'fp', a: number) =>
    all.reduce((s, c) => s + (c[k][a] as number), 0);
  const weightedSum = (k: 'assA' | 'locA', a: number) =>
    all.reduce((s, c) => s + (c[k][a] as number) * (c.tp[a] as number), 0);
  return {
    tp: ALPHAS.map((_, a) => sum('tp', a)),
    fn: ALPHAS.map((_, a) => sum('fn', a)),
    fp: ALPHAS.map((_, a) => sum('fp', a)),
    assA: ALPHAS.map((_, a) => weightedSum('assA', a) / Math.max(1, sum('tp', a))),
    locA: ALPHAS.map(
      (_, a) => Math.max(1e-10, weightedSum('locA', a)) / Math.max(1e-10, sum('tp', a)),
    ),
  };
}

export function hotaScore(c: HotaCounts): HotaScore {
  const mean = (f: (a: number) => number) =>
    ALPHAS.reduce((s, _, a) => s + f(a), 0) / ALPHAS.length;
  const detA = (a: number) =>
    (c.tp[a] as number) /
    Math.max(1, (c.tp[a] as number) + (c.fn[a] as number) + (c.fp[a] as number));
  return {
    hota: mean((a) => Math.sqrt(detA(a) * (c.assA[a] as number))),
    detA: mean(detA),
    assA: mean((a) => c.assA[a] as number),
    locA: mean((a) => c.locA[a] as number),
  };
}
