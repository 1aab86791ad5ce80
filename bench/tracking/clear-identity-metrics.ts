/**
 * CLEAR MOT and the identity metrics as TrackEval (JonathonLuiten/TrackEval,
 * trackeval/metrics/clear.py and identity.py) defines them, written here from its definitions.
 * - CLEAR: per frame, pairs with IoU ≥ 0.5 are assigned to maximise 1000·(the pair continues the
 *   true object's pairing of the previous frame) + IoU, so a continued pairing always wins and
 *   IoU breaks the rest. An ID switch is a true object paired with another id than the last time
 *   it was paired (any number of frames before). MOTA = (TP − FP − IDSW) / (TP + FN).
 * - Identity: one global one-to-one pairing of true and predicted ids (or none) minimising
 *   IDFN + IDFP, where the frames a pair overlaps with IoU ≥ 0.5 count for both; IDF1 = 2·IDTP /
 *   (2·IDTP + IDFN + IDFP).
 */
import { minCostAssignment } from '../../electron/core/tracking/hungarian.js';
import { EPS, bump, maxScorePairs, type EvalSequence } from './eval-sequence.js';

const THRESHOLD = 0.5;

export interface ClearCounts {
  tp: number;
  fn: number;
  fp: number;
  idsw: number;
  motpSum: number;
}

export interface IdentityCounts {
  idtp: number;
  idfn: number;
  idfp: number;
}

export function clearCounts(seq: EvalSequence): ClearCounts {
  const res: ClearCounts = { tp: 0, fn: 0, fp: 0, idsw: 0, motpSum: 0 };
  if (seq.trackerDets === 0) return { ...res, fn: seq.gtDets };
  if (seq.gtDets === 0) return { ...res, fp: seq.trackerDets };
  const lastTracker = new Float64Array(seq.gtIds).fill(NaN);
  let previousStep = new Float64Array(seq.gtIds).fill(NaN);
  for (const { gt, tracker, similarity } of seq.steps) {
    if (gt.length === 0 || tracker.length === 0) {
      res.fp += tracker.length;
      res.fn += gt.length;
      // TrackEval keeps the previous frame's pairs through a frame with no true or no predicted box.
      continue;
    }
    const score = gt.map((g, i) =>
      tracker.map((t, j) => {
        const s = (similarity[i] as number[])[j] as number;
        if (s < THRESHOLD - EPS) return 0;
        return (previousStep[g] === t ? 1000 : 0) + s;
      }),
    );
    const now = new Float64Array(seq.gtIds).fill(NaN);
    let matches = 0;
    for (const [i, j] of maxScorePairs(score)) {
      if (((score[i] as number[])[j] as number) <= EPS) continue;
      const g = gt[i] as number;
      const t = tracker[j] as number;
      const before = lastTracker[g] as number;
      if (!Number.isNaN(before) && before !== t) res.idsw++;
      lastTracker[g] = t;
      now[g] = t;
      matches++;
      res.motpSum += (similarity[i] as number[])[j] as number;
    }
    previousStep = now;
    res.tp += matches;
    res.fn += gt.length - matches;
    res.fp += tracker.length - matches;
  }
  return res;
}

export function mota(c: ClearCounts): number {
  return (c.tp - c.fp - c.idsw) / Math.max(1, c.tp + c.fn);
}

export function identityCounts(seq: EvalSequence): IdentityCounts {
  if (seq.trackerDets === 0) return { idtp: 0, idfn: seq.gtDets, idfp: 0 };
  if (seq.gtDets === 0) return { idtp: 0, idfn: 0, idfp: seq.trackerDets };
  const nG = seq.gtIds;
  const nT = seq.trackerIds;
  const potential = Array.from({ length: nG }, () => new Float64Array(nT));
  const gtCount = new Float64Array(nG);
  const trCount = new Float64Array(nT);
  for (const { gt, tracker, similarity } of seq.steps) {
    gt.forEach((g, i) =>
      tracker.forEach((t, j) => {
        if (((similarity[i] as number[])[j] as number) >= THRESHOLD)
          bump(potential[g] as Float64Array, t);
      }),
    );
    for (const g of gt) bump(gtCount, g);
    for (const t of tracker) bump(trCount, t);
  }
  // TrackEval solves an (nG + nT)² assignment where true and predicted ids may also stay unpaired,
  // each pair costing the boxes of both it leaves unexplained: (gtCount − m) + (trCount − m).
  // The total is ΣgtCount + ΣtrCount − 2·Σm over the pairs, so its optimum pairs ids to maximise
  // Σm: the same IDTP from an nG × nT assignment (ids that never overlap need no column).
  const useful = [...trCount.keys()].filter((t) => potential.some((row) => (row[t] as number) > 0));
  const cost = potential.map((row) => useful.map((t) => -(row[t] as number)));
  let idtp = 0;
  minCostAssignment(cost).forEach((c, g) => {
    if (c >= 0) idtp -= (cost[g] as number[])[c] as number;
  });
  return { idtp, idfn: seq.gtDets - idtp, idfp: seq.trackerDets - idtp };
}

export function idf1(c: IdentityCounts): number {
  return c.idtp / Math.max(1, c.idtp + 0.5 * c.idfp + 0.5 * c.idfn);
}
