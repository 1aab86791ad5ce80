import { describe, expect, it } from 'vitest';
import type { ReviewBox, ReviewEdit } from '../../../electron/shared/contract/review-schemas.js';
import {
  adoptIdentity,
  applyLocal,
  replaceBox,
  rollBack,
} from '../../../renderer/src/features/review/local-edits.js';

const modelBox = (key: string, detectionId: number): ReviewBox => ({
  key,
  detectionId,
  correctionId: null,
  frameIndex: 0,
  timeMs: null,
  label: 'person',
  score: 0.8,
  bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
  origin: 'model',
  review: 'pending',
  deleted: false,
  model: { label: 'person', score: 0.8, bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 } },
  trackId: null,
  rule: null,
});
const ref = { detectionId: 1, correctionId: null };
const add: ReviewEdit = {
  kind: 'add',
  frameIndex: 0,
  timeMs: null,
  label: 'goalpost',
  bbox: { x: 0, y: 0, w: 0.1, h: 0.1 },
};

describe('local edits (shown before the call answers)', () => {
  const boxes = [modelBox('d1', 1), modelBox('d2', 2)];

  it('moves, relabels, accepts and deletes the named box only, without mutating', () => {
    const bbox = { x: 0.5, y: 0.5, w: 0.1, h: 0.1 };
    const moved = applyLocal(boxes, 'd1', { kind: 'move', box: ref, bbox });
    expect(moved[0]).toMatchObject({ bbox, origin: 'edited' });
    expect(moved[1]).toBe(boxes[1]);
    expect(boxes[0]?.bbox.x).toBe(0.1);
    expect(
      applyLocal(boxes, 'd2', { kind: 'relabel', box: ref, label: 'player' })[1],
    ).toMatchObject({ label: 'player', origin: 'edited' });
    expect(applyLocal(boxes, 'd1', { kind: 'reject', box: ref })[0]?.review).toBe('rejected');
    expect(applyLocal(boxes, 'd1', { kind: 'delete', box: ref }).map((b) => b.key)).toEqual(['d2']);
  });

  it('adds a drawn box under its temporary key, then the server renames it', () => {
    const shown = applyLocal(boxes, 'new-1', add);
    expect(shown.at(-1)).toMatchObject({ key: 'new-1', origin: 'added', review: 'accepted' });
    const saved = { ...shown.at(-1)!, key: 'c9', correctionId: 9 };
    const after = replaceBox(shown, 'new-1', saved);
    expect(after.map((b) => b.key)).toEqual(['d1', 'd2', 'c9']);
    // The answer arriving twice does not duplicate the box.
    expect(replaceBox(after, 'new-1', saved).map((b) => b.key)).toEqual(['d1', 'd2', 'c9']);
    expect(replaceBox(after, 'c9', null).map((b) => b.key)).toEqual(['d1', 'd2']);
  });

  it('takes a drawn box’s saved identity but keeps a later edit not yet answered', () => {
    const drawn = applyLocal(boxes, 'new-1', add);
    const bbox = { x: 0.3, y: 0, w: 0.1, h: 0.1 };
    const moved = applyLocal(drawn, 'new-1', { kind: 'move', box: ref, bbox });
    const saved = { ...drawn.at(-1)!, key: 'c9', correctionId: 9 };
    const after = adoptIdentity(moved, 'new-1', saved);
    expect(after.map((b) => b.key)).toEqual(['d1', 'd2', 'c9']);
    expect(after.at(-1)).toMatchObject({ key: 'c9', correctionId: 9, bbox });
    expect(adoptIdentity(after, 'c9', null).map((b) => b.key)).toEqual(['d1', 'd2']);
  });

  it('rolls back only the boxes a failed edit named, keeping what later edits did', () => {
    const snapshot = [modelBox('d1', 1), modelBox('d2', 2)];
    const bbox = { x: 0.5, y: 0.5, w: 0.1, h: 0.1 };
    let now = applyLocal(snapshot, 'd1', { kind: 'move', box: ref, bbox });
    now = applyLocal(now, 'd2', { kind: 'accept', box: ref });
    const add: ReviewEdit = { kind: 'add', frameIndex: 0, timeMs: null, label: 'x', bbox };
    now = applyLocal(now, 'new-1', add);
    const back = rollBack(now, snapshot, ['d1', 'new-1']);
    expect(back.map((b) => b.key)).toEqual(['d1', 'd2']);
    expect(back[0]).toBe(snapshot[0]);
    expect(back[1]?.review).toBe('accepted');
  });
});
