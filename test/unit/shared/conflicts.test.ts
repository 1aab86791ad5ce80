/** Conflicts: different classes on one object (IoU ≥ 0.7), linked into one conflict each. */
import { describe, expect, it } from 'vitest';
import { findConflicts, type ConflictBox } from '../../../electron/shared/geometry/conflicts.js';

const A = { x: 0.1, y: 0.1, w: 0.4, h: 0.4 };
let n = 0;
const b = (
  label: string,
  score: number,
  bbox = A,
  over: Partial<ConflictBox> = {},
): ConflictBox => ({
  key: `${label}${score}`,
  frameIndex: 0,
  label,
  score,
  bbox,
  detectionId: ++n,
  deleted: false,
  review: 'pending',
  ...over,
});

describe('findConflicts', () => {
  it('links different labels on the same box, best score first', () => {
    const boxes = [b('apple', 0.6), b('orange', 0.8), b('lemon', 0.3, { ...A, x: 0.12 })];
    expect(findConflicts(boxes)).toEqual([['orange0.8', 'apple0.6', 'lemon0.3']]);
  });

  it('needs IoU ≥ 0.7, different labels, one frame, live model boxes', () => {
    // IoU of A and A shifted by 0.1 of 0.4 wide: 0.3 × 0.4 / (2 × 0.16 − 0.12) = 0.6.
    expect(findConflicts([b('apple', 0.6), b('orange', 0.8, { ...A, x: 0.2 })])).toEqual([]);
    expect(findConflicts([b('apple', 0.6), b('apple', 0.8)])).toEqual([]);
    expect(findConflicts([b('apple', 0.6), b('orange', 0.8, A, { frameIndex: 1 })])).toEqual([]);
    expect(findConflicts([b('apple', 0.6), b('orange', 0.8, A, { review: 'rejected' })])).toEqual(
      [],
    );
    expect(findConflicts([b('apple', 0.6), b('orange', 0.8, A, { deleted: true })])).toEqual([]);
    expect(findConflicts([b('apple', 0.6), b('orange', 1, A, { detectionId: null })])).toEqual([]);
  });

  it('keeps separate objects separate', () => {
    const far = { x: 0.6, y: 0.6, w: 0.3, h: 0.3 };
    const got = findConflicts([
      b('apple', 0.6),
      b('orange', 0.5),
      b('person', 0.9, far),
      b('remote', 0.7, far),
    ]);
    expect(got).toEqual([
      ['person0.9', 'remote0.7'],
      ['apple0.6', 'orange0.5'],
    ]);
  });
});
