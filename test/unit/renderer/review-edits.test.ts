import { describe, expect, it } from 'vitest';
import type { ReviewBox, ReviewEdit } from '../../../electron/shared/contract/review-schemas.js';
import { applyLocal, replaceBox } from '../../../renderer/src/features/review/local-edits.js';
import { UndoStack, type UndoEntry } from '../../../renderer/src/features/review/undo-stack.js';

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
const entry = (itemId: number, label: string): UndoEntry => ({
  itemId,
  solution: 's',
  label,
  edits: [{ kind: 'accept', box: ref }],
});

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
    const add: ReviewEdit = {
      kind: 'add',
      frameIndex: 0,
      timeMs: null,
      label: 'goalpost',
      bbox: { x: 0, y: 0, w: 0.1, h: 0.1 },
    };
    const shown = applyLocal(boxes, 'new-1', add);
    expect(shown.at(-1)).toMatchObject({ key: 'new-1', origin: 'added', review: 'accepted' });
    const saved = { ...shown.at(-1)!, key: 'c9', correctionId: 9 };
    const after = replaceBox(shown, 'new-1', saved);
    expect(after.map((b) => b.key)).toEqual(['d1', 'd2', 'c9']);
    // The answer arriving twice does not duplicate the box.
    expect(replaceBox(after, 'new-1', saved).map((b) => b.key)).toEqual(['d1', 'd2', 'c9']);
    expect(replaceBox(after, 'c9', null).map((b) => b.key)).toEqual(['d1', 'd2']);
  });
});

describe('undo stack across items', () => {
  it('undoes newest first, redoes what was undone, and a new action clears redo', () => {
    const u = new UndoStack();
    u.record(entry(1, 'move'));
    u.record(entry(2, 'delete'));
    const a = u.takeUndo();
    expect(a?.itemId).toBe(2);
    u.undone({ ...a!, label: 'redo delete' });
    expect(u.canRedo).toBe(true);
    const r = u.takeRedo();
    expect(r?.label).toBe('redo delete');
    u.redone(entry(2, 'delete again'));
    expect(u.peekUndo()?.label).toBe('delete again');
    u.takeUndo();
    u.undone(entry(2, 'x'));
    u.record(entry(3, 'draw'));
    expect(u.canRedo).toBe(false);
  });

  it('puts an entry back when its call fails, ignores empty actions, and keeps a bounded history', () => {
    const u = new UndoStack(3);
    u.record({ ...entry(1, 'nothing'), edits: [] });
    expect(u.canUndo).toBe(false);
    for (let i = 0; i < 5; i++) u.record(entry(i, `e${i}`));
    const taken = u.takeUndo()!;
    u.restoreUndo(taken);
    expect(u.peekUndo()?.label).toBe('e4');
    const labels: string[] = [];
    for (let e = u.takeUndo(); e; e = u.takeUndo()) labels.push(e.label);
    expect(labels).toEqual(['e4', 'e3', 'e2']);
  });
});
