import { describe, expect, it } from 'vitest';
import {
  clearCounts,
  identityCounts,
  idf1,
  mota,
} from '../../../bench/tracking/clear-identity-metrics.js';
import type { EvalSequence, IdBox } from '../../../bench/tracking/eval-sequence.js';
import { scoreTracking } from '../../../bench/tracking/mot-metrics.js';

/**
 * A clip given densely, as TrackEval's own tests give theirs (tests/test_metrics.py, _from_dense):
 * similarity[t][g][k], and which true / predicted ids are present at each step.
 */
function fromDense(
  similarity: number[][][],
  gtPresent: number[][],
  trackerPresent: number[][],
): EvalSequence {
  const steps = similarity.map((sim, t) => {
    const gt = (gtPresent[t] as number[]).flatMap((p, g) => (p ? [g] : []));
    const tracker = (trackerPresent[t] as number[]).flatMap((p, k) => (p ? [k] : []));
    return {
      gt,
      tracker,
      similarity: gt.map((g) => tracker.map((k) => (sim[g] as number[])[k] as number)),
    };
  });
  const count = (m: number[][]) => m.flat().reduce((s, v) => s + v, 0);
  return {
    gtIds: (gtPresent[0] as number[]).length,
    trackerIds: (trackerPresent[0] as number[]).length,
    gtDets: count(gtPresent),
    trackerDets: count(trackerPresent),
    steps,
  };
}

/** Columns over time (as TrackEval's tests write them) to [t][id]. */
const byStep = (columns: number[][]) =>
  (columns[0] as number[]).map((_, t) => columns.map((c) => c[t] as number));

/** similarity[t][g][k] from a list of (g, k, values over time). */
function dense(nG: number, nT: number, pairs: [number, number, number[]][]): number[][][] {
  return [0, 1, 2, 3, 4].map((t) =>
    Array.from({ length: nG }, (_, g) =>
      Array.from({ length: nT }, (_, k) => {
        const p = pairs.find(([pg, pk]) => pg === g && pk === k);
        return p ? (p[2][t] as number) : 0;
      }),
    ),
  );
}

describe('CLEAR and identity metrics against TrackEval (tests/test_metrics.py, its published values)', () => {
  const gt = byStep([
    [1, 1, 1, 1, 1],
    [1, 1, 1, 0, 0],
  ]);
  const tracker = byStep([
    [1, 1, 1, 1, 0],
    [1, 1, 1, 1, 1],
  ]);

  it('no_confusion', () => {
    const seq = fromDense(
      dense(2, 2, [
        [0, 1, [0, 0, 0, 1, 1]],
        [1, 0, [1, 1, 0, 0, 0]],
      ]),
      gt,
      tracker,
    );
    const c = clearCounts(seq);
    expect(c).toMatchObject({ tp: 4, fn: 4, fp: 5, idsw: 0 });
    expect(mota(c)).toBeCloseTo(1 - 9 / 8, 12);
    const i = identityCounts(seq);
    expect(i).toEqual({ idtp: 4, idfn: 4, idfp: 5 });
    expect(idf1(i)).toBeCloseTo((2 * 4) / 17, 12);
  });

  it('with_confusion', () => {
    const seq = fromDense(
      dense(2, 2, [
        [0, 1, [0, 0, 0, 1, 1]],
        [1, 0, [1, 1, 0, 0, 0]],
        [0, 0, [0, 0, 1, 0, 0]],
        [1, 1, [0, 1, 0, 0, 0]],
      ]),
      gt,
      tracker,
    );
    const c = clearCounts(seq);
    expect(c).toMatchObject({ tp: 5, fn: 3, fp: 4, idsw: 1 });
    expect(mota(c)).toBeCloseTo(0, 12);
    expect(identityCounts(seq)).toEqual({ idtp: 4, idfn: 4, idfp: 5 });
  });

  it('split_tracks', () => {
    const seq = fromDense(
      dense(2, 5, [
        [0, 0, [1, 1, 0, 0, 0]],
        [0, 3, [0, 0, 0, 1, 1]],
        [1, 1, [0, 0, 1, 1, 0]],
        [1, 2, [0, 0, 0, 0, 1]],
        [1, 4, [1, 1, 0, 0, 0]],
      ]),
      byStep([
        [1, 1, 0, 1, 1],
        [1, 1, 1, 1, 1],
      ]),
      byStep([
        [1, 1, 0, 0, 0],
        [0, 0, 1, 1, 1],
        [0, 0, 0, 0, 1],
        [0, 0, 1, 1, 1],
        [1, 1, 0, 0, 0],
      ]),
    );
    const c = clearCounts(seq);
    expect(c).toMatchObject({ tp: 9, fn: 0, fp: 2, idsw: 3 });
    expect(mota(c)).toBeCloseTo(1 - 5 / 9, 12);
    const i = identityCounts(seq);
    expect(i).toEqual({ idtp: 4, idfn: 5, idfp: 7 });
    expect(idf1(i)).toBeCloseTo((2 * 4) / 20, 12);
  });
});

describe('HOTA, CLEAR and IDF1 of a small clip, as TrackEval scored it', () => {
  // Three walkers over 8 frames (pixel boxes); the tracker shifts its boxes a little, swaps the ids
  // of walkers 1 and 2 from frame 5, misses walker 3 in frame 4 and invents a box in frame 6.
  const gt: IdBox[] = [];
  const tr: IdBox[] = [];
  const box = (frameIndex: number, id: number, x: number, y: number, w: number, h: number) => ({
    frameIndex,
    id,
    bbox: { x, y, w, h },
  });
  for (let f = 0; f < 8; f++) {
    gt.push(box(f, 1, 10 + 5 * f, 10, 20, 40));
    if (f !== 3) gt.push(box(f, 2, 100 - 6 * f, 12, 22, 44));
    if (f >= 2) gt.push(box(f, 3, 40, 80 + 2 * f, 30, 30));
    tr.push(box(f, f >= 5 ? 8 : 7, 12 + 5 * f, 11, 20, 40));
    if (f !== 3) tr.push(box(f, f >= 5 ? 7 : 8, 101 - 6 * f, 14, 22, 42));
    if (f >= 2 && f !== 4) tr.push(box(f, 9, 43, 80 + 2 * f + (f % 3), 28, 30));
    if (f === 6) tr.push(box(f, 10, 150, 150, 20, 20));
  }

  it('matches the numbers TrackEval gave', () => {
    // Expected values: TrackEval (JonathonLuiten/TrackEval @ 12c8791) run by hand on this clip,
    // its HOTA, CLEAR and Identity classes' eval_sequence with similarity from
    // _BaseDataset._calculate_box_ious (xywh); HOTA, DetA, AssA, LocA are its means over alpha.
    const s = scoreTracking(gt, tr);
    expect(s.hota).toBeCloseTo(0.5525200608846726, 12);
    expect(s.detA).toBeCloseTo(0.7485047846889953, 12);
    expect(s.assA).toBeCloseTo(0.4111862779845236, 12);
    expect(s.locA).toBeCloseTo(0.8467188839824679, 12);
    expect(s.mota).toBeCloseTo(0.8095238095238095, 12);
    expect(s).toMatchObject({ idsw: 2, fn: 1, fp: 1, idtp: 14 });
    expect(s.identity).toEqual({ idtp: 14, idfn: 7, idfp: 7 });
    expect(s.idf1).toBeCloseTo(2 / 3, 12);
  });
});
