/**
 * A conflict is one row and one drawn box: its chosen box (the selected one, else the best score)
 * stands for it, named with every class; boxes the filter hides are not merged.
 */
import { describe, expect, it } from 'vitest';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';
import { findConflicts } from '../../../electron/shared/geometry/conflicts.js';
import { mergeConflicts } from '../../../renderer/src/features/review/conflict-rows.js';

const SAME = { x: 0.2, y: 0.2, w: 0.4, h: 0.4 };
const reviewBox = (key: string, label: string, score: number, over: Partial<ReviewBox> = {}) =>
  ({
    key,
    detectionId: Number(key.slice(1)),
    correctionId: null,
    frameIndex: 0,
    timeMs: null,
    label,
    score,
    bbox: SAME,
    origin: 'model',
    review: 'pending',
    deleted: false,
    model: null,
    trackId: null,
    ...over,
  }) satisfies ReviewBox;

const boxes = [
  reviewBox('d1', 'apple', 0.9),
  reviewBox('d2', 'orange', 0.8, { review: 'accepted', rule: 'orange ≥ 0.7 at 95 %' }),
  reviewBox('d3', 'kiwi', 0.7, { bbox: { x: 0.7, y: 0.7, w: 0.1, h: 0.1 } }),
];
const byKey = new Map(boxes.map((b) => [b.key, b]));
const merge = (shown: ReviewBox[], selected: string[] = []) =>
  mergeConflicts(shown, findConflicts(boxes), byKey, new Set(selected));

describe('mergeConflicts', () => {
  it('shows a conflict as its best box, named with every class', () => {
    const m = merge(boxes);
    expect(m.rows.map((b) => b.key)).toEqual(['d1', 'd3']);
    expect(m.drawn.map((b) => b.label)).toEqual(['apple / orange', 'kiwi']);
    expect(m.conflicts.get('d1')).toEqual({
      members: [
        { key: 'd1', label: 'apple' },
        { key: 'd2', label: 'orange' },
      ],
      byRule: 1,
      chosen: 0,
      labels: 'apple / orange',
    });
  });

  it('the selected box of a conflict is the chosen one (its class is what C keeps)', () => {
    const m = merge(boxes, ['d2']);
    expect(m.rows.map((b) => b.key)).toEqual(['d2', 'd3']);
    expect(m.conflicts.get('d2')?.chosen).toBe(1);
    expect(m.drawn[0]?.label).toBe('apple / orange');
  });

  it('a conflict with a box the filter hides is not merged', () => {
    const m = merge([boxes[1]!, boxes[2]!]);
    expect(m.rows.map((b) => b.key)).toEqual(['d2', 'd3']);
    expect(m.conflicts.size).toBe(0);
  });
});
