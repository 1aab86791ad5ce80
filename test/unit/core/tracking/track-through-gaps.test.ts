import { describe, expect, it } from 'vitest';
import { assignTracks, type TrackInput } from '../../../../electron/core/tracking/assign-tracks.js';
import {
  gatedAssignment,
  minCostAssignment,
} from '../../../../electron/core/tracking/hungarian.js';

/** A walker's box on frame f, moving `speed` (normalised) per frame from x0. */
const walker = (f: number, x0: number, speed: number, extra: Partial<TrackInput> = {}) => ({
  frameIndex: f,
  label: 'person',
  bbox: { x: x0 + speed * f, y: 0.3, w: 0.05, h: 0.15 },
  ...extra,
});

const frames = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('tracking through gaps, at the clip’s sampling rate', () => {
  it('at 10 fps keeps a walker’s id through 8 hidden frames (under a second)', () => {
    const seen = [...frames(0, 9), ...frames(18, 27)];
    const boxes = seen.map((f) => walker(f, 0.1, 0.01, { fps: 10 }));
    expect(new Set(assignTracks(boxes))).toEqual(new Set([1]));
  });

  it('at 5 fps re-links a walker hidden for 6 frames where it was heading, not a stranger', () => {
    // A walks right at 0.012 per frame and is hidden on frames 10-15; B stands still far away.
    const a = [...frames(0, 9), ...frames(16, 25)].map((f) => walker(f, 0.1, 0.012, { fps: 5 }));
    const b = frames(16, 25).map((f) => walker(f, 0.7, 0, { fps: 5 }));
    const ids = assignTracks([...a, ...b]);
    expect(new Set(ids.slice(0, a.length))).toEqual(new Set([1]));
    expect(new Set(ids.slice(a.length))).toEqual(new Set([2]));
  });

  it('at 1 fps follows a walker moving twice its width per frame', () => {
    const boxes = frames(0, 7).map((f) => walker(f, 0.05, 0.1, { fps: 1 }));
    expect(assignTracks(boxes)).toEqual(new Array(8).fill(1));
  });
});

describe('low-score boxes (ByteTrack’s second stage)', () => {
  it('weak boxes continue a track, but alone never start one', () => {
    // A is seen clearly, then only weakly (partly hidden); B is only ever seen weakly.
    const a = frames(0, 11).map((f) => walker(f, 0.1, 0.01, { score: f < 4 ? 0.9 : 0.2 }));
    const b = frames(0, 11).map((f) => walker(f, 0.6, 0, { score: 0.3 }));
    const ids = assignTracks([...a, ...b]);
    expect(ids).toEqual([...new Array(12).fill(1), ...new Array(12).fill(null)]);
  });
});

describe('gatedAssignment', () => {
  it('gives the least total cost over allowed pairs, group by group', () => {
    const cost = [
      [1, 2, 9, 9],
      [1, 5, 9, 9],
      [9, 9, 3, 1],
    ];
    const allowed = (r: number, c: number) => (cost[r] as number[])[c] !== 9;
    expect(gatedAssignment(cost, allowed)).toEqual([1, 0, 3]);
    // A row whose only allowed column is taken by a cheaper total stays unpaired.
    expect(gatedAssignment([[1], [2]], () => true)).toEqual([0, -1]);
    expect(gatedAssignment([[1, 2]], (_, c) => c === 1)).toEqual([1]);
  });

  it('on a busy frame, solved group by group, pairs as many and as cheaply as the whole matrix', () => {
    // 30 tracks and 30 boxes: each box within reach of its own track and a neighbour or two.
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const cost = Array.from({ length: 30 }, (_, r) =>
      Array.from({ length: 30 }, (_, c) => (Math.abs(r - c) <= 1 && rnd() < 0.8 ? rnd() : 1e6)),
    );
    const allowed = (r: number, c: number) => ((cost[r] as number[])[c] as number) < 1e6;
    const grouped = gatedAssignment(cost, allowed);
    const whole = minCostAssignment(cost).map((c, r) => (c >= 0 && allowed(r, c) ? c : -1));
    const total = (cols: number[]) =>
      cols.reduce((s, c, r) => (c >= 0 ? s + ((cost[r] as number[])[c] as number) : s), 0);
    expect(grouped.filter((c) => c >= 0).length).toBe(whole.filter((c) => c >= 0).length);
    expect(total(grouped)).toBeCloseTo(total(whole), 12);
    expect(new Set(grouped.filter((c) => c >= 0)).size).toBe(grouped.filter((c) => c >= 0).length);
  });
});
