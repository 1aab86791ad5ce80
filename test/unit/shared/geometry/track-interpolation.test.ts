import { describe, expect, it } from 'vitest';
import {
  frameAt,
  interpolateAt,
  interpolateTrack,
  sortAnchors,
  timeOfFrame,
  type TrackAnchor,
} from '../../../../electron/shared/geometry/track-interpolation.js';
import { samePlace } from '../../../../electron/shared/geometry/frame-place.js';

const at = (frame: number, x: number, y: number, w: number, h: number, score = 1): TrackAnchor => ({
  frame,
  bbox: { x, y, w, h },
  score,
});

describe('track interpolation', () => {
  const track = sortAnchors([at(30, 0.5, 0.4, 0.2, 0.4, 0.5), at(10, 0.1, 0.2, 0.1, 0.2, 0.9)]);

  it('is linear in position, size and score between two anchors', () => {
    const mid = interpolateAt(track, 20);
    expect(mid?.frame).toBe(20);
    expect(mid?.bbox.x).toBeCloseTo(0.3, 12);
    expect(mid?.bbox.y).toBeCloseTo(0.3, 12);
    expect(mid?.bbox.w).toBeCloseTo(0.15, 12);
    expect(mid?.bbox.h).toBeCloseTo(0.3, 12);
    expect(mid?.score).toBeCloseTo(0.7, 12);
    const quarter = interpolateAt(track, 15);
    expect(quarter?.bbox.x).toBeCloseTo(0.2, 12);
    expect(quarter?.bbox.w).toBeCloseTo(0.125, 12);
  });

  it('gives the frames next to the anchors one step from them, and nothing on the anchors', () => {
    expect(interpolateAt(track, 11)?.bbox.x).toBeCloseTo(0.1 + 0.4 / 20, 12);
    expect(interpolateAt(track, 29)?.bbox.x).toBeCloseTo(0.5 - 0.4 / 20, 12);
    expect(interpolateAt(track, 10)).toBeNull();
    expect(interpolateAt(track, 30)).toBeNull();
  });

  it('gives nothing outside the track', () => {
    expect(interpolateAt(track, 9)).toBeNull();
    expect(interpolateAt(track, 31)).toBeNull();
    expect(interpolateAt(track, 0)).toBeNull();
  });

  it('does not interpolate a single anchor', () => {
    const one = sortAnchors([at(5, 0.1, 0.1, 0.1, 0.1)]);
    expect(interpolateAt(one, 4)).toBeNull();
    expect(interpolateAt(one, 6)).toBeNull();
    expect([...interpolateTrack(one)]).toEqual([]);
    expect([...interpolateTrack([])]).toEqual([]);
  });

  it('leaves a gap longer than maxGap empty and fills the shorter ones', () => {
    const three = sortAnchors([
      at(0, 0, 0, 0.1, 0.1),
      at(4, 0.4, 0, 0.1, 0.1),
      at(20, 0, 0, 0.1, 0.1),
    ]);
    expect(interpolateAt(three, 2, 5)?.bbox.x).toBeCloseTo(0.2, 12);
    expect(interpolateAt(three, 10, 5)).toBeNull();
    expect([...interpolateTrack(three, 5)].map((b) => b.frame)).toEqual([1, 2, 3]);
    expect([...interpolateTrack(three)]).toHaveLength(3 + 15);
  });

  it('lists every frame between anchors exactly once, in order, with exact ends', () => {
    const all = [...interpolateTrack(track)];
    expect(all.map((b) => b.frame)).toEqual(Array.from({ length: 19 }, (_, i) => 11 + i));
    for (const b of all) expect(interpolateAt(track, b.frame)).toEqual(b);
  });

  it('keeps one anchor per frame (the first given)', () => {
    const twice = sortAnchors([
      at(3, 0.1, 0, 0.1, 0.1),
      at(3, 0.9, 0, 0.1, 0.1),
      at(5, 0.3, 0, 0.1, 0.1),
    ]);
    expect(twice).toHaveLength(2);
    expect(interpolateAt(twice, 4)?.bbox.x).toBeCloseTo(0.2, 12);
  });

  it('maps times to clip frames and back, and keeps off-sample frames apart from samples', () => {
    expect(frameAt(1000, 10)).toBe(10);
    expect(frameAt(1049, 10)).toBe(10);
    expect(frameAt(1051, 10)).toBe(11);
    expect(timeOfFrame(25, 10)).toBe(2500);
    expect(samePlace({ frameIndex: 0, keyframe: true }, { frameIndex: 0 })).toBe(false);
    expect(samePlace({ frameIndex: 0, keyframe: true }, { frameIndex: 0, keyframe: true })).toBe(
      true,
    );
    expect(samePlace({ frameIndex: 0 }, { frameIndex: 0 })).toBe(true);
  });
});
