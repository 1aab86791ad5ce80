import { describe, expect, it } from 'vitest';
import type { MergedBox } from '../../../../electron/core/review/merge-corrections.js';
import { placeTracks } from '../../../../electron/core/review/place-tracks.js';
import { samplingRate, trackModelBoxes } from '../../../../electron/core/tracking/model-tracks.js';

/** A stored model box of a walker on analysed frame f of a clip sampled at `fps`. */
const row = (id: number, f: number, fps: number | null, score = 0.9) => ({
  id,
  frameIndex: f,
  label: 'person',
  bbox: { x: 0.1 + 0.01 * f, y: 0.3, w: 0.05, h: 0.15 },
  score,
  timeMs: fps === null ? null : Math.round((f * 1000) / fps),
});

describe('model tracks use the clip’s sampling rate and the model’s scores', () => {
  it('reads the rate from the boxes’ times', () => {
    expect(samplingRate([row(1, 0, 10), row(2, 30, 10)])).toBeCloseTo(10, 6);
    expect(samplingRate([row(1, 0, null), row(2, 30, null)])).toBe(0);
  });

  it('holds a walker through 8 hidden frames of a 10 fps clip (times known)', () => {
    const seen = [0, 1, 2, 3, 4, 5, 14, 15, 16, 17, 18];
    const ranks = trackModelBoxes(seen.map((f, i) => row(i + 1, f, 10))).rankOf;
    expect(new Set(ranks.values())).toEqual(new Set([1]));
    expect(ranks.size).toBe(seen.length);
  });

  it('a box the model scored low continues a track but never starts one', () => {
    const walker = [0, 1, 2, 3, 4, 5].map((f) => row(f + 1, f, 5, f < 3 ? 0.9 : 0.2));
    const weak = [0, 1, 2, 3].map((f) => ({
      ...row(100 + f, f, 5, 0.2),
      bbox: { x: 0.7, y: 0.6, w: 0.05, h: 0.15 },
    }));
    const ranks = trackModelBoxes([...walker, ...weak]).rankOf;
    expect(walker.map((r) => ranks.get(r.id))).toEqual([1, 1, 1, 1, 1, 1]);
    expect(weak.map((r) => ranks.get(r.id))).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('a short track the tracker made at 1 fps', () => {
  it('stays a track in the review (only a track cut short by edits is dropped)', () => {
    // A walker seen on two frames of a clip sampled once a second, then gone.
    const rows = [0, 1].map((f) => row(f + 1, f, 1));
    const merged = rows.map((r): MergedBox => ({
      ...r,
      resultId: 1,
      classId: 0,
      origin: 'model',
      review: 'pending',
      key: `d${r.id}`,
      detectionId: r.id,
      correctionId: null,
      model: { label: r.label, score: r.score, bbox: r.bbox },
      deleted: false,
      personTrack: null,
      rule: null,
    }));
    const placed = placeTracks(merged, trackModelBoxes(rows));
    expect(placed.map((b) => b.trackId)).toEqual([1, 1]);
  });
});
