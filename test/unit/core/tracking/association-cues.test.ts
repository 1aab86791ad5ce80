import { describe, expect, it } from 'vitest';
import { assignTracks } from '../../../../electron/core/tracking/assign-tracks.js';
import { KalmanBox } from '../../../../electron/core/tracking/kalman-box.js';
import { matchCost } from '../../../../electron/core/tracking/match-cost.js';
import { trackerOptionsFor } from '../../../../electron/core/tracking/tracker-options.js';

const frames = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('an object that left the picture', () => {
  it('is not continued by another that appears inside soon after (5 fps)', () => {
    // A walks up and out at the top; B appears just inside the top edge where A would be
    // re-linked by its speed alone, and stands still.
    const a = frames(0, 9).map((f) => ({
      frameIndex: f,
      label: 'person',
      fps: 5,
      bbox: { x: 0.4, y: 0.22 - 0.03 * f, w: 0.08, h: 0.1 },
    }));
    const b = frames(13, 20).map((f) => ({
      frameIndex: f,
      label: 'person',
      fps: 5,
      bbox: { x: 0.4, y: 0.01, w: 0.08, h: 0.1 },
    }));
    const ids = assignTracks([...a, ...b]);
    expect(new Set(ids.slice(0, a.length))).toEqual(new Set([1]));
    expect(new Set(ids.slice(a.length))).toEqual(new Set([2]));
  });
});

describe('box size as a cue where two objects overlap', () => {
  const predicted = { x: 0.5, y: 0.3, w: 0.05, h: 0.15 };
  const spread = { x: 0.01, y: 0.01 };
  // Same size, a little aside (IoU 0.67); or centred but shorter (IoU 0.73): another object.
  const sameSize = { ...predicted, x: 0.51 };
  const shorter = { ...predicted, y: 0.32, h: 0.11 };

  it('at 1 and 5 fps prefers the box of the track’s size to a closer one; at 10 fps overlap decides', () => {
    for (const fps of [1, 5]) {
      const gate = trackerOptionsFor(fps).gate;
      expect(matchCost(predicted, spread, sameSize, gate)).toBeLessThan(
        matchCost(predicted, spread, shorter, gate),
      );
    }
    // At 10 fps sizes measured frame to frame are mostly noise next to the overlap.
    const gate = trackerOptionsFor(10).gate;
    expect(matchCost(predicted, spread, shorter, gate)).toBeLessThan(
      matchCost(predicted, spread, sameSize, gate),
    );
  });
});

describe('weak boxes move a track’s estimate less (10 fps)', () => {
  it('a box with a third of the trust pulls the estimate a smaller step', () => {
    const step = (trust: number) => {
      const still = { x: 0.5, y: 0.3, w: 0.05, h: 0.15 };
      const k = new KalmanBox(still, trackerOptionsFor(10).noise);
      for (let f = 0; f < 10; f++) {
        k.predict();
        k.update(still);
      }
      k.predict();
      k.update({ x: 0.52, y: 0.3, w: 0.05, h: 0.15 }, trust);
      return k.box().x - 0.5;
    };
    expect(step(1 / 3)).toBeGreaterThan(0);
    expect(step(1 / 3)).toBeLessThan(0.7 * step(1));
  });

  it('the tracker distrusts a box by its score at 10 fps, and not at 5', () => {
    expect(trackerOptionsFor(10).scoreTrust).toBeGreaterThan(1);
    expect(trackerOptionsFor(5).scoreTrust).toBe(0);
  });
});
