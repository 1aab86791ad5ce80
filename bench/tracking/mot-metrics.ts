/**
 * Tracking scores from their definitions, for the tracking bench.
 * - CLEAR-MOT: per frame, a true object keeps the predicted box it matched last frame when they
 *   still overlap (IoU ≥ 0.5); the rest are paired by minimum-cost assignment on 1 − IoU among
 *   pairs with IoU ≥ 0.5. Unpaired true boxes are misses (FN), unpaired predicted boxes false
 *   positives (FP), and a true object paired with another track id than at its previous pairing
 *   is an ID switch. MOTA = 1 − (FN + FP + IDSW) / GT.
 * - IDF1: every true trajectory is matched to at most one predicted trajectory, and back, by a
 *   global assignment maximising the frames where the two overlap (IoU ≥ 0.5); those frames are
 *   IDTP and IDF1 = 2·IDTP / (true boxes + predicted boxes).
 */
import { minCostAssignment } from '../../electron/core/tracking/hungarian.js';
import { iou, type NormBox } from '../../electron/shared/geometry/box-math.js';

export interface IdBox {
  frameIndex: number;
  id: number;
  bbox: NormBox;
}

export interface TrackingScore {
  gt: number;
  predicted: number;
  fn: number;
  fp: number;
  idsw: number;
  idtp: number;
  mota: number;
  idf1: number;
  /** Distinct predicted track ids. */
  tracks: number;
}

const MATCH_IOU = 0.5;
const REFUSED = 1e6;

export function scoreTracking(truth: readonly IdBox[], predicted: readonly IdBox[]): TrackingScore {
  const gtByFrame = byFrame(truth);
  const predByFrame = byFrame(predicted);
  const frames = [...new Set([...gtByFrame.keys(), ...predByFrame.keys()])].sort((a, b) => a - b);
  const lastPaired = new Map<number, number>();
  /** Frames each (true id, predicted id) pair overlaps, for IDF1. */
  const overlapFrames = new Map<number, Map<number, number>>();
  let fn = 0;
  let fp = 0;
  let idsw = 0;
  for (const f of frames) {
    const gts = gtByFrame.get(f) ?? [];
    const preds = predByFrame.get(f) ?? [];
    const overlaps = gts.map((g) => preds.map((p) => iou(g.bbox, p.bbox)));
    countOverlaps(gts, preds, overlaps, overlapFrames);
    const pairOf = pairFrame(gts, preds, overlaps, lastPaired);
    let paired = 0;
    pairOf.forEach((pi, gi) => {
      if (pi < 0) return;
      paired++;
      const gid = (gts[gi] as IdBox).id;
      const pid = (preds[pi] as IdBox).id;
      const before = lastPaired.get(gid);
      if (before !== undefined && before !== pid) idsw++;
      lastPaired.set(gid, pid);
    });
    fn += gts.length - paired;
    fp += preds.length - paired;
  }
  const idtp = globalIdMatches(overlapFrames);
  const gt = truth.length;
  return {
    gt,
    predicted: predicted.length,
    fn,
    fp,
    idsw,
    idtp,
    mota: gt ? 1 - (fn + fp + idsw) / gt : 1,
    idf1: gt + predicted.length ? (2 * idtp) / (gt + predicted.length) : 1,
    tracks: new Set(predicted.map((p) => p.id)).size,
  };
}

/** The predicted box of each true box in one frame (-1: none), keeping last frame's pairs first. */
function pairFrame(
  gts: readonly IdBox[],
  preds: readonly IdBox[],
  overlaps: readonly number[][],
  lastPaired: ReadonlyMap<number, number>,
): number[] {
  const pairOf = new Array<number>(gts.length).fill(-1);
  const taken = new Uint8Array(preds.length);
  gts.forEach((g, gi) => {
    const before = lastPaired.get(g.id);
    const pi = preds.findIndex((p, k) => p.id === before && !taken[k]);
    if (pi >= 0 && ((overlaps[gi] as number[])[pi] as number) >= MATCH_IOU) {
      pairOf[gi] = pi;
      taken[pi] = 1;
    }
  });
  const openG = gts.map((_, i) => i).filter((i) => pairOf[i] === -1);
  const openP = preds.map((_, i) => i).filter((i) => !taken[i]);
  const cost = openG.map((gi) =>
    openP.map((pi) => {
      const o = (overlaps[gi] as number[])[pi] as number;
      return o >= MATCH_IOU ? 1 - o : REFUSED;
    }),
  );
  minCostAssignment(cost).forEach((c, r) => {
    if (c >= 0 && ((cost[r] as number[])[c] as number) < REFUSED) {
      pairOf[openG[r] as number] = openP[c] as number;
    }
  });
  return pairOf;
}

function countOverlaps(
  gts: readonly IdBox[],
  preds: readonly IdBox[],
  overlaps: readonly number[][],
  into: Map<number, Map<number, number>>,
): void {
  gts.forEach((g, gi) =>
    preds.forEach((p, pi) => {
      if (((overlaps[gi] as number[])[pi] as number) < MATCH_IOU) return;
      const row = into.get(g.id) ?? new Map<number, number>();
      row.set(p.id, (row.get(p.id) ?? 0) + 1);
      into.set(g.id, row);
    }),
  );
}

/** IDTP: the most overlapping frames a one-to-one pairing of true and predicted ids can have. */
function globalIdMatches(overlapFrames: ReadonlyMap<number, ReadonlyMap<number, number>>): number {
  const gtIds = [...overlapFrames.keys()];
  const predIds = [
    ...new Set(gtIds.flatMap((g) => [...(overlapFrames.get(g) ?? new Map()).keys()])),
  ];
  const column = new Map(predIds.map((p, i) => [p, i]));
  const cost = gtIds.map(() => new Array<number>(predIds.length).fill(0));
  gtIds.forEach((g, gi) => {
    for (const [p, n] of overlapFrames.get(g) ?? [])
      (cost[gi] as number[])[column.get(p) as number] = -n;
  });
  let idtp = 0;
  minCostAssignment(cost).forEach((c, gi) => {
    if (c >= 0) idtp -= (cost[gi] as number[])[c] as number;
  });
  return idtp;
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
