/** A crowd region and a box without a score cross the packed columns as they went (issue 24). */
import { describe, expect, it } from 'vitest';
import {
  packReviewBoxes,
  unpackReviewBoxes,
} from '../../../electron/shared/contract/packed-review-boxes.js';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import { boxName } from '../../../renderer/src/features/library/viewer/box-geometry.js';

const crowd: ReviewBox = {
  key: 'c3',
  detectionId: null,
  correctionId: 3,
  frameIndex: 0,
  timeMs: null,
  label: 'person',
  score: null,
  bbox: { x: 0.5, y: 0.5, w: 0.25, h: 0.25 },
  origin: 'added',
  review: 'accepted',
  deleted: false,
  crowd: true,
  model: null,
  trackId: null,
  rule: null,
};

describe('crowd regions in the review', () => {
  it('keep their flag and their missing score through the packed columns', () => {
    const back = unpackReviewBoxes(packReviewBoxes([crowd]));
    expect(back[0]).toMatchObject({ crowd: true, score: null });
  });

  it('are named as crowd regions, and a scoreless box by its label alone', () => {
    expect(boxName(crowd)).toBe('person crowd region');
    expect(boxName({ label: 'cat', score: null })).toBe('cat');
  });
});

describe('keyframes in the packed columns (issue 22)', () => {
  it('keep their flag, apart from a sample of the same number', () => {
    const sample = { ...crowd, key: 'c4', correctionId: 4, frameIndex: 5, crowd: undefined };
    const boxes: ReviewBox[] = [{ ...sample, key: 'c3', correctionId: 3, keyframe: true }, sample];
    const back = unpackReviewBoxes(packReviewBoxes(boxes));
    expect(back.map((b) => [b.frameIndex, b.keyframe])).toEqual([
      [5, true],
      [5, undefined],
    ]);
  });
});
