import { describe, expect, it } from 'vitest';
import { assignTracks } from '../../../../electron/core/tracking/assign-tracks.js';
import { matchCost } from '../../../../electron/core/tracking/match-cost.js';
import { trackerOptionsFor } from '../../../../electron/core/tracking/tracker-options.js';

describe('size as a cue for a near miss at 1 fps', () => {
  const predicted = { x: 0.5, y: 0.3, w: 0.05, h: 0.15 };
  const spread = { x: 0.03, y: 0.03 };
  // Neither overlaps the prediction: one of the track's size 2 spreads away, one smaller (by
  // a third) 1.7 spreads away, another walker crossing.
  const sameSize = { ...predicted, x: 0.56 };
  const smaller = { x: 0.5575, y: 0.325, w: 0.035, h: 0.1 };

  it('prefers the box of the track’s size to a closer one of another size', () => {
    const gate = trackerOptionsFor(1).gate;
    expect(matchCost(predicted, spread, sameSize, gate)).toBeLessThan(
      matchCost(predicted, spread, smaller, gate),
    );
  });
});

describe('of two boxes that fit a track about as well, the surer one continues it (5 fps)', () => {
  it('a strong box a little aside wins over a weak one on the prediction', () => {
    const walk = Array.from({ length: 10 }, (_, f) => ({
      frameIndex: f,
      label: 'person',
      fps: 5,
      score: 0.9,
      bbox: { x: 0.2 + 0.01 * f, y: 0.3, w: 0.05, h: 0.15 },
    }));
    const onPrediction = { x: 0.3, y: 0.3, w: 0.05, h: 0.15 };
    const strong = {
      ...walk[0]!,
      frameIndex: 10,
      score: 0.95,
      bbox: { ...onPrediction, x: 0.305 },
    };
    const weak = { ...walk[0]!, frameIndex: 10, score: 0.4, bbox: onPrediction };
    const ids = assignTracks([...walk, weak, strong]);
    expect(ids[walk.length + 1]).toBe(ids[0]);
    expect(ids[walk.length]).not.toBe(ids[0]);
  });
});
