import { describe, expect, it } from 'vitest';
import { scoreTracking, type IdBox } from '../../../bench/tracking/mot-metrics.js';

const at = (frameIndex: number, id: number, x: number): IdBox => ({
  frameIndex,
  id,
  bbox: { x, y: 0.3, w: 0.1, h: 0.2 },
});

/** Two objects, A at x 0.1 and B at x 0.6, on frames 0–9. */
const truth: IdBox[] = [];
for (let f = 0; f < 10; f++) truth.push(at(f, 1, 0.1), at(f, 2, 0.6));

describe('tracking scores (bench)', () => {
  it('a perfect tracker scores 1, whatever its ids are called', () => {
    const s = scoreTracking(
      truth,
      truth.map((b) => ({ ...b, id: b.id + 40 })),
    );
    expect(s).toMatchObject({ fn: 0, fp: 0, idsw: 0, idtp: 20, mota: 1, idf1: 1, tracks: 2 });
  });

  it('a track that changes its id half-way is one switch and half its boxes in IDF1', () => {
    const predicted = truth.map((b) => ({ ...b, id: b.id === 1 && b.frameIndex >= 5 ? 7 : b.id }));
    const s = scoreTracking(truth, predicted);
    expect(s).toMatchObject({ fn: 0, fp: 0, idsw: 1, idtp: 15, tracks: 3 });
    expect(s.mota).toBeCloseTo(1 - 1 / 20, 12);
    expect(s.idf1).toBeCloseTo((2 * 15) / 40, 12);
  });

  it('two tracks that swap objects are two switches', () => {
    const predicted = truth.map((b) => ({ ...b, id: b.frameIndex >= 5 ? 3 - b.id : b.id }));
    expect(scoreTracking(truth, predicted)).toMatchObject({ idsw: 2, idtp: 10 });
  });

  it('a missed box is a miss, an invented or misplaced one a false positive (IoU < 0.5)', () => {
    const predicted = truth.filter((b) => !(b.id === 2 && b.frameIndex === 3));
    predicted.push(at(4, 9, 0.85));
    const moved = predicted.findIndex((b) => b.id === 1 && b.frameIndex === 8);
    predicted[moved] = at(8, 1, 0.16); // IoU 0.25 with the truth: no match
    const s = scoreTracking(truth, predicted);
    expect(s).toMatchObject({ fn: 2, fp: 2, idsw: 0, idtp: 18 });
    expect(s.mota).toBeCloseTo(1 - 4 / 20, 12);
    expect(s.idf1).toBeCloseTo((2 * 18) / (20 + 20), 12);
  });
});
