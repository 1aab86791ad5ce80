import { describe, expect, it } from 'vitest';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import { emptyFrameTimes } from '../../../renderer/src/features/video-review/clip-frames.js';
import {
  boxesAt,
  trackPaths,
} from '../../../renderer/src/features/video-review/interpolated-boxes.js';

const box = (key: string, timeMs: number, x: number, trackId: number | null): ReviewBox => ({
  key,
  detectionId: null,
  correctionId: 1,
  frameIndex: timeMs / 200,
  timeMs,
  label: 'person',
  score: 0.8,
  bbox: { x, y: 0.1, w: 0.2, h: 0.4 },
  origin: 'model',
  review: 'pending',
  deleted: false,
  model: null,
  trackId,
  rule: null,
});

describe('interpolated boxes in the video review', () => {
  // 10 fps; track 1 at frames 0 and 4, track 2 seen once, a box in no track.
  const all = [
    box('a', 0, 0.1, 1),
    box('b', 400, 0.5, 1),
    box('c', 0, 0.7, 2),
    box('d', 0, 0.3, null),
  ];
  const paths = trackPaths(all, 10);

  it('keeps tracks with two anchors or more', () => {
    expect(paths.map((p) => p.trackId)).toEqual([1]);
  });

  it('replaces a track’s nearest-frame box by its interpolated box between anchors', () => {
    const frameBoxes = all.filter((b) => b.timeMs === 0);
    const at = boxesAt(frameBoxes, paths, 100, 10);
    expect(at.map((b) => b.key)).toEqual(['c', 'd', 'i1']);
    const i1 = at[2]!;
    expect(i1).toMatchObject({
      interpolated: true,
      trackId: 1,
      frameIndex: 1,
      keyframe: true,
      timeMs: 100,
    });
    expect(i1.bbox.x).toBeCloseTo(0.2, 12);
    // Half way (frame 2), and nothing interpolated on an anchor's own frame.
    expect(boxesAt(frameBoxes, paths, 200, 10)[2]!.bbox.x).toBeCloseTo(0.3, 12);
    expect(boxesAt(frameBoxes, paths, 0, 10)).toBe(frameBoxes);
    expect(boxesAt(frameBoxes, paths, 500, 10)).toBe(frameBoxes);
  });

  it('leaves deleted boxes and an unknown frame rate out', () => {
    expect(trackPaths([{ ...all[0]!, deleted: true }, all[1]!], 10)).toEqual([]);
    expect(trackPaths(all, 0)).toEqual([]);
  });

  it('does not take a keyframe between samples for a sample when filling in the samples', () => {
    const frames = new Map([
      [1, 200],
      [3, 600],
    ]);
    // The samples are 0-4 every 200 ms (1 and 3 have boxes); keyframes on clip frames 2 and 4
    // are frames of their own, not samples 2 and 4.
    const withBoxes = [
      ...[1, 3].map((index) => ({ index, timeMs: index * 200, boxes: [] })),
      { index: 2, keyframe: true as const, timeMs: 200, boxes: [] },
      { index: 4, keyframe: true as const, timeMs: 400, boxes: [] },
    ];
    expect([...emptyFrameTimes(frames, withBoxes, 1000, 10)]).toEqual([
      [0, 0],
      [2, 400],
      [4, 800],
    ]);
  });
});
