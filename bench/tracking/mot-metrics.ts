/**
 * The tracking bench's scores, as the MOTChallenge's TrackEval computes them: CLEAR MOT (MOTA, ID
 * switches), the identity metrics (IDF1) and HOTA (with DetA, AssA, LocA); see
 * clear-identity-metrics.ts and hota-metric.ts. Several clips combine as TrackEval combines
 * sequences: counts are summed, then the scores are taken of the sums.
 */
import {
  clearCounts,
  identityCounts,
  idf1,
  mota,
  type ClearCounts,
  type IdentityCounts,
} from './clear-identity-metrics.js';
import { evalSequence, type IdBox } from './eval-sequence.js';
import { combineHota, hotaCounts, hotaScore, type HotaCounts } from './hota-metric.js';

export type { IdBox } from './eval-sequence.js';

export interface TrackingScore {
  gt: number;
  predicted: number;
  fn: number;
  fp: number;
  idsw: number;
  idtp: number;
  mota: number;
  idf1: number;
  hota: number;
  detA: number;
  assA: number;
  locA: number;
  /** Distinct predicted track ids. */
  tracks: number;
  /** Distinct true objects. */
  objects: number;
  clear: ClearCounts;
  identity: IdentityCounts;
  hotaCounts: HotaCounts;
}

export function scoreTracking(truth: readonly IdBox[], predicted: readonly IdBox[]): TrackingScore {
  const seq = evalSequence(truth, predicted);
  return scoreOf(clearCounts(seq), identityCounts(seq), hotaCounts(seq), seq.trackerIds, seq.gtIds);
}

/** Several clips' scores as one. */
export function combineScores(all: readonly TrackingScore[]): TrackingScore {
  const sum = <K extends string>(pick: (s: TrackingScore) => Record<K, number>, k: K) =>
    all.reduce((s, x) => s + pick(x)[k], 0);
  const c = (k: keyof ClearCounts) => sum((s) => s.clear, k);
  const i = (k: keyof IdentityCounts) => sum((s) => s.identity, k);
  return scoreOf(
    { tp: c('tp'), fn: c('fn'), fp: c('fp'), idsw: c('idsw'), motpSum: c('motpSum') },
    { idtp: i('idtp'), idfn: i('idfn'), idfp: i('idfp') },
    combineHota(all.map((s) => s.hotaCounts)),
    all.reduce((s, x) => s + x.tracks, 0),
    all.reduce((s, x) => s + x.objects, 0),
  );
}

function scoreOf(
  clear: ClearCounts,
  identity: IdentityCounts,
  hota: HotaCounts,
  tracks: number,
  objects: number,
): TrackingScore {
  return {
    gt: clear.tp + clear.fn,
    predicted: clear.tp + clear.fp,
    fn: clear.fn,
    fp: clear.fp,
    idsw: clear.idsw,
    idtp: identity.idtp,
    mota: mota(clear),
    idf1: idf1(identity),
    ...hotaScore(hota),
    tracks,
    objects,
    clear,
    identity,
    hotaCounts: hota,
  };
}

/** The score of track ids given to `detections` (null: a box in no track, not scored). */
export function scoreIds(
  truth: readonly IdBox[],
  detections: readonly Omit<IdBox, 'id'>[],
  ids: readonly (number | null | undefined)[],
): TrackingScore {
  const predicted: IdBox[] = [];
  detections.forEach((d, i) => {
    const id = ids[i];
    if (id !== null && id !== undefined)
      predicted.push({ frameIndex: d.frameIndex, id, bbox: d.bbox });
  });
  return scoreTracking(truth, predicted);
}
