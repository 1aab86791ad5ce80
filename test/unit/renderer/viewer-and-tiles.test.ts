import { describe, expect, it } from 'vitest';
import type { Box, LibraryItem } from '../../../electron/shared/contract/index.js';
import { tileLabel } from '../../../renderer/src/features/library/tile-label.js';
import {
  boxName,
  boxRect,
  boxesAt,
} from '../../../renderer/src/features/library/viewer/box-geometry.js';

const item: LibraryItem = {
  id: 1,
  path: '/p/photo.jpg',
  name: 'photo.jpg',
  kind: 'image',
  size: 10,
  width: 10,
  height: 10,
  durationMs: null,
  status: 'labelled',
  boxes: 3,
  pendingReview: 3,
  byRule: 0,
  reviewed: false,
  errorCode: null,
  errorMessage: null,
};

const box = (id: number, timeMs: number | null, score = 0.905): Box => ({
  id,
  frameIndex: 0,
  timeMs,
  label: 'person',
  score,
  bbox: { x: 0.25, y: 0.5, w: 0.5, h: 0.25 },
  origin: 'model',
  review: 'pending',
});

describe('grid cell names', () => {
  it('start with the file name, then the badges', () => {
    expect(tileLabel(item)).toBe('photo.jpg, 3 boxes, labelled, 3 to review');
    expect(tileLabel({ ...item, boxes: 1, pendingReview: 0 })).toBe('photo.jpg, 1 box, labelled');
    expect(tileLabel({ ...item, boxes: 1, pendingReview: 1, reviewed: true })).toBe(
      'photo.jpg, 1 box, labelled, reviewed',
    );
    expect(
      tileLabel({ ...item, status: 'new', boxes: null, pendingReview: 0, kind: 'video' }),
    ).toBe('photo.jpg, new, clip');
    expect(tileLabel({ ...item, pendingReview: 1, byRule: 2 })).toBe(
      'photo.jpg, 3 boxes, labelled, 1 to review, 2 accepted by rule',
    );
  });
});

describe('boxes in the viewer', () => {
  it('are named by label and score with two decimals', () => {
    expect(boxName({ label: 'person', score: 0.9071 })).toBe('person 0.91');
    expect(boxName({ label: 'dog', score: 1 })).toBe('dog 1.00');
  });

  it('are drawn from normalised coordinates, clamped to the picture', () => {
    expect(boxRect({ x: 0.25, y: 0.5, w: 0.5, h: 0.25 }, 400, 200)).toEqual({
      x: 100,
      y: 100,
      w: 200,
      h: 50,
    });
    const clamped = boxRect({ x: -0.1, y: 0.9, w: 0.3, h: 0.5 }, 100, 100);
    expect(clamped.x).toBe(0);
    expect(clamped.w).toBeCloseTo(20);
    expect(clamped.y).toBeCloseTo(90);
    expect(clamped.h).toBeCloseTo(10);
  });

  it('of a clip are those of the analysed frame nearest the playhead', () => {
    const boxes = [box(1, 0), box(2, 500), box(3, 500), box(4, 1000)];
    expect(boxesAt(boxes, 620).map((b) => b.id)).toEqual([2, 3]);
    expect(boxesAt(boxes, 900).map((b) => b.id)).toEqual([4]);
    expect(boxesAt(boxes, null)).toHaveLength(4);
  });
});
