import { describe, expect, it } from 'vitest';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import {
  analysedFrames,
  emptyFrameTimes,
  gridMoves,
  samplePlan,
  densityByClass,
  detectionFrom,
  editedFrames,
  isReviewed,
  nearestFrame,
} from '../../../renderer/src/features/video-review/clip-frames.js';
import { shownBy } from '../../../renderer/src/features/review/box-filter.js';

function box(frameIndex: number, label: string, score: number, review = 'pending'): ReviewBox {
  return {
    key: `d${frameIndex}${label}${score}`,
    detectionId: 1,
    correctionId: null,
    frameIndex,
    timeMs: frameIndex * 500,
    label,
    score,
    bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
    origin: 'model',
    review: review as ReviewBox['review'],
    deleted: false,
    model: null,
    trackId: 1,
    rule: null,
  };
}

const boxes = [
  box(0, 'person', 0.9),
  box(0, 'car', 0.3),
  box(2, 'car', 0.35, 'accepted'),
  box(4, 'person', 0.6),
  box(4, 'person', 0.7),
];
const frames = analysedFrames(boxes);

describe('a clip’s analysed frames', () => {
  it('groups boxes by sampled frame in time order', () => {
    expect(frames.map((f) => [f.index, f.timeMs, f.boxes.length])).toEqual([
      [0, 0, 2],
      [2, 1000, 1],
      [4, 2000, 2],
    ]);
  });

  it('groups a frame whose boxes come apart, and leaves out boxes at no time', () => {
    const apart = [
      box(0, 'person', 0.9),
      { ...box(0, 'dog', 0.5), timeMs: null },
      box(0, 'car', 0.3),
      box(2, 'car', 0.35),
      box(0, 'bus', 0.4),
    ];
    expect(analysedFrames(apart).map((f) => [f.index, f.boxes.map((b) => b.label)])).toEqual([
      [0, ['person', 'car', 'bus']],
      [2, ['car']],
    ]);
  });

  it('keeps a frame whose last box was deleted, empty, so it can still be edited', () => {
    const known = new Map(frames.map((f) => [f.index, f.timeMs]));
    const left = analysedFrames(
      boxes.filter((b) => b.frameIndex !== 2),
      known,
    );
    expect(left.map((f) => [f.index, f.boxes.length])).toEqual([
      [0, 2],
      [2, 0],
      [4, 2],
    ]);
    expect(isReviewed(left[1]!)).toBe(true);
  });

  it('never hides a drawn box under the threshold', () => {
    const drawn = { ...box(2, 'cone', 0.1), origin: 'added' as const };
    expect(shownBy({ minScore: 0.5, label: null })(drawn)).toBe(true);
    expect(shownBy({ minScore: 0.5, label: 'person' })(drawn)).toBe(false);
  });

  it('finds the nearest frame to any time, ties going to the earlier one', () => {
    expect(nearestFrame(frames, -50)?.index).toBe(0);
    expect(nearestFrame(frames, 499)?.index).toBe(0);
    expect(nearestFrame(frames, 500)?.index).toBe(0);
    expect(nearestFrame(frames, 501)?.index).toBe(2);
    expect(nearestFrame(frames, 9000)?.index).toBe(4);
    expect(nearestFrame([], 10)).toBeUndefined();
  });

  it('jumps to the next and previous frame with a shown box, skipping filtered ones', () => {
    const people = shownBy({ minScore: 0, label: 'person' });
    expect(detectionFrom(frames, 0, 1, people)?.index).toBe(4);
    expect(detectionFrom(frames, 2000, -1, people)?.index).toBe(0);
    expect(detectionFrom(frames, 2000, 1, people)).toBeUndefined();
    const sure = shownBy({ minScore: 0.5, label: null });
    expect(detectionFrom(frames, 0, 1, sure)?.index).toBe(4);
  });

  it('counts shown boxes per class per frame, and knows the reviewed frames', () => {
    const rows = densityByClass(frames, shownBy({ minScore: 0.32, label: null }));
    expect(rows.get('person')).toEqual({ timesMs: [0, 2000], counts: [1, 2] });
    expect(rows.get('car')).toEqual({ timesMs: [1000], counts: [1] });
    expect(frames.map(isReviewed)).toEqual([false, true, false]);
  });

  it('adds up a class whose boxes on a frame are between other classes’ boxes', () => {
    const mixed = analysedFrames([
      box(0, 'person', 0.9),
      box(0, 'car', 0.5),
      box(0, 'person', 0.8),
      box(1, 'car', 0.6),
      box(1, 'person', 0.7),
    ]);
    const rows = densityByClass(mixed, shownBy({ minScore: 0, label: null }));
    expect(rows.get('person')).toEqual({ timesMs: [0, 500], counts: [2, 1] });
    expect(rows.get('car')).toEqual({ timesMs: [0, 500], counts: [1, 1] });
  });

  it('finds the frames an undo touched: named boxes still there, and added boxes', () => {
    const on = (frameIndex: number, detectionId: number, correctionId: number | null) => ({
      ...box(frameIndex, 'person', 0.5),
      detectionId,
      correctionId,
    });
    const after = [on(0, 1, null), on(4, 2, 7), on(2, 3, null)];
    const ref = (detectionId: number | null, correctionId: number | null) => ({
      detectionId,
      correctionId,
    });
    expect(
      editedFrames(
        [
          { kind: 'restore', box: ref(null, 7) },
          { kind: 'accept', box: ref(3, null) },
          // Deleted by the undo: no longer among the boxes, it names no frame.
          { kind: 'delete', box: ref(99, null) },
          { kind: 'add', frameIndex: 6, timeMs: 3000, label: 'cone', bbox: box(6, 'c', 1).bbox },
        ],
        after,
      ),
    ).toEqual([
      { index: 2, timeMs: 1000 },
      { index: 4, timeMs: 2000 },
      { index: 6, timeMs: 3000 },
    ]);
    expect(editedFrames([{ kind: 'delete', box: ref(99, null) }], after)).toEqual([]);
  });
});

describe('sampled frames without boxes', () => {
  const frame = (index: number, timeMs: number) => ({ index, timeMs, boxes: [] });

  it('fills the samples the model found nothing on, from the start to the end of the clip', () => {
    // Samples every 200 ms; boxes only on samples 2 and 5, given in any order: the lowest and
    // highest sample give the period.
    const known = new Map([
      [5, 1000],
      [2, 400],
    ]);
    const empty = emptyFrameTimes(known, [frame(2, 400), frame(5, 1000)], 1500, 25);
    expect([...empty].sort((a, b) => a[0] - b[0])).toEqual([
      [0, 0],
      [1, 200],
      [3, 600],
      [4, 800],
      [6, 1200],
      [7, 1400],
    ]);
  });

  it('puts computed times on the clip frame grid, and needs two distinct samples', () => {
    const known = new Map([
      [0, 0],
      [3, 1001],
    ]);
    const empty = emptyFrameTimes(known, [frame(0, 0), frame(3, 1001)], 1400, 30);
    // Period 333.67 ms; at 30 fps frames are 33.33 ms apart.
    expect(empty.get(1)).toBeCloseTo(333.333, 2);
    expect(empty.get(4)).toBeCloseTo(1333.333, 2);
    expect(emptyFrameTimes(new Map([[4, 800]]), [frame(4, 800)], 2000, 25).size).toBe(0);
  });

  it('keeps a frame whose boxes were all deleted, at its own time', () => {
    const known = new Map([
      [0, 0],
      [1, 1000],
      [2, 2000],
    ]);
    // Sample 1 has no boxes any more; it stays a frame, at its time.
    const empty = emptyFrameTimes(known, [frame(0, 0), frame(2, 2000)], 2500, 25);
    expect([...empty]).toEqual([[1, 1000]]);
  });
});

describe('a frame rate arriving after the boxes', () => {
  // Samples every 1001 ms: on a 30 fps grid only where a multiple of 1001 is a frame's time.
  const known = new Map([
    [0, 0],
    [3, 3003],
  ]);
  const plan = samplePlan(known, 5000);

  it('moves an empty sample that is not on the new grid', () => {
    expect(gridMoves(plan, known, 0, 30)).toBe(true);
    expect(gridMoves(plan, known, 30, 30)).toBe(false);
  });

  it('moves nothing when every sample has boxes (their own times stay)', () => {
    const all = new Map([0, 1, 2, 3, 4].map((i) => [i, i * 1001]));
    expect(gridMoves(samplePlan(all, 5000), all, 0, 30)).toBe(false);
  });

  it('moves nothing on a clip sampled on its frame grid', () => {
    const onGrid = new Map([
      [0, 0],
      [3, 3000],
    ]);
    expect(gridMoves(samplePlan(onGrid, 5000), onGrid, 0, 25)).toBe(false);
  });
});
