import { describe, expect, it } from 'vitest';
import { assignTracks, type TrackInput } from '../../../../electron/core/tracking/assign-tracks.js';

/** A walker's box on frame f, moving `speed` (normalised) per frame from x0. */
const walker = (f: number, x0: number, speed: number, label = 'person', y = 0.3): TrackInput => ({
  frameIndex: f,
  label,
  bbox: { x: x0 + speed * f, y, w: 0.05, h: 0.15 },
});

/** The boxes' ids grouped per frame, to read a test's expectation at a glance. */
const perFrame = (boxes: readonly TrackInput[], ids: readonly (number | null)[]) => {
  const out: Record<number, (number | null)[]> = {};
  boxes.forEach((b, i) => (out[b.frameIndex] ??= []).push(ids[i] ?? null));
  return out;
};

describe('assignTracks (SORT-style)', () => {
  it('keeps the ids of two walkers of one class who cross each other', () => {
    // A walks right, B left, on the same line: at frames 9–11 they overlap almost completely.
    const boxes: TrackInput[] = [];
    for (let f = 0; f < 20; f++) boxes.push(walker(f, 0.1, 0.02), walker(f, 0.5, -0.02));
    const ids = assignTracks(boxes);
    for (let f = 0; f < 20; f++) expect([ids[2 * f], ids[2 * f + 1]]).toEqual([1, 2]);
  });

  it('keeps a fast walker’s id through two missed frames (its box never overlaps the last one)', () => {
    // 0.06 per frame is more than its width: greedy IoU linking loses it at every frame.
    const boxes = [0, 1, 2, 3, 6, 7, 8].map((f) => walker(f, 0.05, 0.06));
    expect(assignTracks(boxes)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('ends a track after three missed frames: a box seen again later starts another', () => {
    const boxes = [0, 1, 2, 7, 8, 9].map((f) => walker(f, 0.3, 0));
    expect(assignTracks(boxes)).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it('gives no track to a false positive seen on a single frame, nor to one seen twice', () => {
    const boxes = [walker(0, 0.1, 0.01), walker(1, 0.1, 0.01), walker(1, 0.7, 0, 'person', 0.6)];
    boxes.push(walker(2, 0.1, 0.01), walker(3, 0.1, 0.01));
    expect(assignTracks(boxes)).toEqual([1, 1, null, 1, 1]);
    // A track is born on its third box in a row: two are not enough.
    expect(assignTracks([walker(4, 0.5, 0), walker(5, 0.5, 0)])).toEqual([null, null]);
    expect(assignTracks([4, 5, 6].map((f) => walker(f, 0.5, 0)))).toEqual([1, 1, 1]);
  });

  it('but a single box a person drew or accepted is a track of its own', () => {
    const drawn = { ...walker(1, 0.7, 0, 'person', 0.6), sure: true };
    const walk = [0, 1, 2].map((f) => walker(f, 0.1, 0));
    expect(assignTracks([...walk, drawn])).toEqual([1, 1, 1, 2]);
  });

  it('never links different classes, and numbers tracks by their first box', () => {
    const boxes: TrackInput[] = [];
    for (let f = 0; f < 4; f++) {
      boxes.push(walker(f + 1, 0.4, 0, 'dog'), walker(f, 0.4, 0, 'cat'));
    }
    const ids = assignTracks(boxes);
    expect(perFrame(boxes, ids)).toEqual({ 0: [1], 1: [2, 1], 2: [2, 1], 3: [2, 1], 4: [2] });
  });

  it('gives the same ids whatever the input order', () => {
    const boxes: TrackInput[] = [];
    for (let f = 0; f < 6; f++)
      boxes.push(walker(f, 0.1, 0.03), walker(f, 0.8, -0.03, 'person', 0.31));
    const forward = assignTracks(boxes);
    const reversed = assignTracks([...boxes].reverse());
    expect([...reversed].reverse()).toEqual(forward);
    expect(new Set(forward)).toEqual(new Set([1, 2]));
  });
});

describe('assignTracks with tracks a person chose', () => {
  it('keeps a person’s track ids and numbers the tracker’s tracks around them', () => {
    const boxes: TrackInput[] = [];
    for (let f = 0; f < 4; f++) {
      boxes.push(walker(f, 0.1, 0.01), walker(f, 0.4, 0.01), walker(f, 0.7, 0.01));
    }
    // The middle walker's first two boxes are a person's track 1, its last two their track 5.
    boxes[1] = { ...(boxes[1] as TrackInput), pinned: 1 };
    boxes[4] = { ...(boxes[4] as TrackInput), pinned: 1 };
    boxes[7] = { ...(boxes[7] as TrackInput), pinned: 5 };
    boxes[10] = { ...(boxes[10] as TrackInput), pinned: 5 };
    expect(perFrame(boxes, assignTracks(boxes))).toEqual({
      0: [2, 1, 3],
      1: [2, 1, 3],
      2: [2, 5, 3],
      3: [2, 5, 3],
    });
  });
});
