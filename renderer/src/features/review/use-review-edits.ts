/**
 * Every edit of the review screen: shown at once (the query cache is updated first), saved at once
 * (one call, in order, through a queue), recorded for undo with the inverse the server answered.
 * A failed call shows its error and refetches the item's boxes, so the screen shows what is saved
 * and the undo stack holds only what happened.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { CallResult } from '../../../../electron/shared/contract/index.js';
import type { ReviewBox, ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';
import { useApiHandle } from '../../api/api-context.js';
import { codedError, type CodedError } from '../../api/error-text.js';
import { callKey } from '../../api/use-call.js';
import { applyLocal, refOf, replaceBox } from './local-edits.js';
import type { UndoEntry, UndoStack } from './undo-stack.js';

type Ref = ReturnType<typeof refOf>;
type ReviewBoxes = CallResult<'review.boxes'>;

export const boxesQuery = (id: number, solution: string) =>
  callKey('review.boxes', { id, solution });

/** An edit for the box with `key`, or (kind `add`) a new box that `key` names until it is saved. */
export interface PlannedEdit {
  key: string;
  edit: ReviewEdit;
}

interface Options {
  id: number;
  solution: string;
  undo: UndoStack;
  /** Undo or redo of an edit made on another item opens that item. */
  onOpenItem(id: number): void;
  /** Undo or redo on this item went through: the edits sent, and the boxes after them. */
  onReplayed?(edits: readonly ReviewEdit[], boxes: readonly ReviewBox[]): void;
}

export function useReviewEdits({ id, solution, undo, onOpenItem, onReplayed }: Options) {
  const { api } = useApiHandle();
  const client = useQueryClient();
  const [error, setError] = useState<CodedError | null>(null);
  const [, setVersion] = useState(0);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const renamed = useRef(new Map<string, string>());
  const seq = useRef(0);

  const bump = () => setVersion((v) => v + 1);
  const read = (itemId: number) =>
    client.getQueryData<ReviewBoxes>(boxesQuery(itemId, solution))?.boxes ?? [];
  const write = (itemId: number, f: (boxes: ReviewBox[]) => ReviewBox[]) =>
    client.setQueryData<ReviewBoxes>(boxesQuery(itemId, solution), (old) =>
      old ? { ...old, boxes: f(old.boxes) } : old,
    );
  const refresh = (itemId: number) =>
    client.invalidateQueries({ queryKey: boxesQuery(itemId, solution) });
  const enqueue = (task: () => Promise<void>) => {
    const p = queue.current.then(task);
    queue.current = p.catch(() => undefined);
    return p;
  };
  const fail = (itemId: number, err: unknown) => {
    setError(codedError(err));
    void refresh(itemId);
  };

  /** The box an edit names: known now, or (drawn a moment ago) once its add has answered. */
  const refNow = (itemId: number, key: string) => {
    const box = read(itemId).find((b) => b.key === (renamed.current.get(key) ?? key));
    return box && (box.detectionId !== null || box.correctionId !== null) ? refOf(box) : null;
  };
  const resolve = (itemId: number, p: PlannedEdit, ref: Ref | null): ReviewEdit | null => {
    if (p.edit.kind === 'add') return p.edit;
    const box = ref ?? refNow(itemId, p.key);
    return box ? { ...p.edit, box } : null;
  };

  /** Applies edits now, saves them (one call), and records their undo as one action. */
  const apply = (planned: PlannedEdit[], label: string): Promise<void> => {
    const itemId = id;
    if (planned.length === 0) return Promise.resolve();
    const refs = planned.map((p) => refNow(itemId, p.key));
    write(itemId, (boxes) => planned.reduce((acc, p) => applyLocal(acc, p.key, p.edit), boxes));
    return enqueue(async () => {
      const edits = planned
        .map((p, i) => ({ p, e: resolve(itemId, p, refs[i] ?? null) }))
        .filter((x): x is { p: PlannedEdit; e: ReviewEdit } => x.e !== null);
      if (edits.length === 0) return;
      try {
        const [only] = edits;
        if (edits.length === 1 && only) {
          const { p, e } = only;
          const r = await api.call('review.edit', { id: itemId, solution, edit: e });
          const key = renamed.current.get(p.key) ?? p.key;
          if (r.box && r.box.key !== key) renamed.current.set(p.key, r.box.key);
          write(itemId, (boxes) => replaceBox(boxes, key, r.box));
          undo.record({ itemId, solution, edits: [r.inverse], label });
        } else {
          const r = await api.call('review.editMany', {
            id: itemId,
            solution,
            edits: edits.map((x) => x.e),
          });
          undo.record({ itemId, solution, edits: r.inverse, label });
        }
        setError(null);
      } catch (err) {
        fail(itemId, err);
      }
      bump();
    });
  };

  /** A server-side action over many boxes, recorded as one undo step; the boxes are refetched. */
  const recorded = (label: string, call: () => Promise<{ inverse: ReviewEdit[] }>) => {
    const itemId = id;
    return enqueue(async () => {
      try {
        const r = await call();
        undo.record({ itemId, solution, edits: r.inverse, label });
        setError(null);
      } catch (err) {
        setError(codedError(err));
      }
      await refresh(itemId);
      bump();
    });
  };

  /** Accept or reject every box shown (threshold and class filter), as one action. */
  const bulk = (kind: 'accept' | 'reject', minScore: number, classes: string[] | undefined) => {
    const input = { id, solution, minScore, ...(classes ? { classes } : {}) };
    const name = kind === 'accept' ? 'review.acceptAll' : 'review.rejectAll';
    return recorded(`${kind} all shown`, () => api.call(name, input));
  };

  /** A clip's whole track takes a label (every sampled frame it spans), as one action. */
  const relabelTrack = (trackId: number, label: string) =>
    recorded('relabel track', () =>
      api.call('review.relabelTrack', { id, solution, trackId, label }),
    );

  const replay = (direction: 'undo' | 'redo') =>
    enqueue(async () => {
      const entry = direction === 'undo' ? undo.takeUndo() : undo.takeRedo();
      if (!entry) return;
      let done = false;
      try {
        const r = await api.call('review.editMany', {
          id: entry.itemId,
          solution: entry.solution,
          edits: entry.edits,
        });
        const back: UndoEntry = { ...entry, edits: r.inverse };
        if (direction === 'undo') undo.undone(back);
        else undo.redone(back);
        setError(null);
        done = true;
        if (entry.itemId !== id) onOpenItem(entry.itemId);
      } catch (err) {
        if (direction === 'undo') undo.restoreUndo(entry);
        else undo.restoreRedo(entry);
        setError(codedError(err));
      }
      await refresh(entry.itemId);
      if (done && entry.itemId === id) onReplayed?.(entry.edits, read(id));
      bump();
    });

  return {
    apply,
    bulk,
    relabelTrack,
    undo: () => replay('undo'),
    redo: () => replay('redo'),
    /** A key for a box drawn now, until the server names it. */
    newKey: () => `new-${++seq.current}`,
    /** The key a box has now (a drawn box is renamed when its add is saved). */
    currentKey: (key: string) => renamed.current.get(key) ?? key,
    error,
    clearError: () => setError(null),
    canUndo: undo.canUndo,
    canRedo: undo.canRedo,
  };
}
