/**
 * Review priority counts expected corrections: half a correction per box near its class's
 * threshold, one per box a conflict needs rejected, one per box missing against the folder.
 */
import { describe, expect, it } from 'vitest';
import {
  medianCount,
  reviewPriority,
  type PriorityBox,
  type PriorityContext,
} from '../../../../electron/core/review/review-priority.js';

let next = 0;
function box(label: string, score: number, over: Partial<PriorityBox> = {}): PriorityBox {
  next++;
  return {
    key: `d${next}`,
    frameIndex: 0,
    label,
    score,
    bbox: { x: (next % 7) * 0.13, y: 0.1, w: 0.1, h: 0.1 },
    detectionId: next,
    deleted: false,
    review: 'pending',
    ...over,
  };
}

const SAME_PLACE = { x: 0.5, y: 0.5, w: 0.3, h: 0.3 };
const ctx = (over: Partial<PriorityContext> = {}): PriorityContext => ({
  thresholds: new Map([
    ['apple', 0.6],
    ['orange', 0.5],
  ]),
  folderMedian: 0,
  ...over,
});

describe('reviewPriority', () => {
  it('counts boxes just under or over their class threshold as half a correction each', () => {
    const boxes = [
      box('apple', 0.55), // under, within 0.1
      box('apple', 0.69), // over, within 0.1
      box('apple', 0.95), // far over: the model is sure
      box('apple', 0.2), // far under
      box('orange', 0.5), // on the threshold
      box('lemon', 0.55), // no threshold for lemons: nothing to be near
    ];
    const p = reviewPriority(boxes, ctx());
    expect(p.nearThreshold).toBe(3);
    expect(p.score).toBe(1.5);
  });

  it('leaves rejected, deleted and drawn boxes out', () => {
    const boxes = [
      box('apple', 0.6, { review: 'rejected' }),
      box('apple', 0.6, { deleted: true }),
      box('apple', 0.6, { detectionId: null }),
    ];
    expect(reviewPriority(boxes, ctx()).nearThreshold).toBe(0);
  });

  it('a box near its threshold a person decided is no coin flip; one a rule accepted still is', () => {
    const boxes = [
      box('apple', 0.62, { review: 'accepted', origin: 'model', rule: null }), // a person accepted
      box('apple', 0.62, { origin: 'edited' }), // a person moved or relabelled it
      box('apple', 0.62, { review: 'accepted', origin: 'model', rule: 'apple ≥ 0.6' }),
      box('apple', 0.62), // nobody decided
    ];
    expect(reviewPriority(boxes, ctx()).nearThreshold).toBe(2);
  });

  it('a conflict of n boxes costs n - 1 rejections', () => {
    const boxes = [
      box('apple', 0.95, { bbox: SAME_PLACE }),
      box('orange', 0.9, { bbox: SAME_PLACE }),
      box('lemon', 0.92, { bbox: SAME_PLACE }),
    ];
    const p = reviewPriority(boxes, ctx());
    expect(p.conflicting).toBe(2);
    expect(p.score).toBe(2);
    // Once a person rejects one of them, one rejection is left.
    boxes[2]!.review = 'rejected';
    expect(reviewPriority(boxes, ctx()).conflicting).toBe(1);
  });

  it('a file with fewer boxes than its folder median misses the difference', () => {
    const none = reviewPriority([], ctx({ folderMedian: 6 }));
    expect(none.missing).toBe(6);
    const two = reviewPriority([box('apple', 0.99), box('apple', 0.98)], ctx({ folderMedian: 6 }));
    expect(two.missing).toBe(4);
    const many = reviewPriority(
      Array.from({ length: 8 }, () => box('apple', 0.99)),
      ctx({ folderMedian: 6 }),
    );
    expect(many.missing).toBe(0);
    expect(many.score).toBe(0);
  });

  it('orders a sure, complete file after an uncertain one', () => {
    const sure = reviewPriority(
      [box('apple', 0.99), box('orange', 0.97)],
      ctx({ folderMedian: 2 }),
    );
    const unsure = reviewPriority([box('apple', 0.62)], ctx({ folderMedian: 2 }));
    expect(unsure.score).toBeGreaterThan(sure.score);
  });

  it('takes a margin of its own', () => {
    const boxes = [box('apple', 0.75)];
    expect(reviewPriority(boxes, ctx()).nearThreshold).toBe(0);
    expect(reviewPriority(boxes, ctx({ margin: 0.2 })).nearThreshold).toBe(1);
  });
});

describe('medianCount', () => {
  it('is the lower middle of the counts, 0 for none', () => {
    expect(medianCount([])).toBe(0);
    expect(medianCount([5])).toBe(5);
    expect(medianCount([9, 1, 4])).toBe(4);
    expect(medianCount([1, 2, 3, 10])).toBe(2);
  });
});
