/**
 * Every edit of the review, outside React: shown at once, saved in order (one queue), recorded for
 * undo with the inverse the server answered. Optimistic edits follow TanStack Query's pattern:
 * cancel the item's fetch in flight (it would overwrite the edit), snapshot, write, and on an error
 * roll the edited boxes back to the snapshot, then refetch to settle on what is saved. A failure
 * stays shown until dismissed: a later edit that saves does not hide it.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { CallResult, LabelDeskApi } from '@shared/contract/index.js';
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';
import { codedError } from '../../api/error-text.js';
import { callKey } from '../../api/call-key.js';
import { trackSaving } from '../../api/saving-edits.js';
import { adoptIdentity, applyLocal, refOf, replaceBox, rollBack } from './local-edits.js';
import type { ReviewSession, UndoEntry } from './review-session.js';

type ReviewBoxes = CallResult<'review.boxes'>;
type Ref = ReturnType<typeof refOf>;

export const boxesQuery = (id: number, solution: string) =>
  callKey('review.boxes', { id, solution });

/** An edit for the box with `key`, or (kind `add`) a new box that `key` names until it is saved. */
export interface PlannedEdit {
  key: string;
  edit: ReviewEdit;
}

export function createEditRunner(
  client: QueryClient,
  api: Pick<LabelDeskApi, 'call'>,
  session: ReviewSession,
) {
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (task: () => Promise<void>) => {
    const p = queue.then(task);
    queue = p.catch(() => undefined);
    trackSaving(p);
    return p;
  };
  const read = (itemId: number, solution: string) =>
    client.getQueryData<ReviewBoxes>(boxesQuery(itemId, solution))?.boxes ?? [];
  const write = (itemId: number, solution: string, f: (boxes: ReviewBox[]) => ReviewBox[]) =>
    client.setQueryData<ReviewBoxes>(boxesQuery(itemId, solution), (old) =>
      old ? { ...old, boxes: f(old.boxes) } : old,
    );
  const refresh = (itemId: number, solution: string) =>
    client.invalidateQueries({ queryKey: boxesQuery(itemId, solution) });
  // Edits shown and not yet answered, in the queue's order.
  const unsaved = new Set<PlannedEdit>();
  const editedLater = (key: string, edit: PlannedEdit) =>
    [...unsaved].some((p) => p !== edit && session.currentKey(p.key) === key);

  /** The box an edit names: known now, or (drawn a moment ago) once its add has answered. */
  const refNow = (itemId: number, solution: string, key: string): Ref | null => {
    const box = read(itemId, solution).find((b) => b.key === session.currentKey(key));
    return box && (box.detectionId !== null || box.correctionId !== null) ? refOf(box) : null;
  };

  /** Applies edits now, saves them (one call), and records their undo as one action. */
  const apply = (itemId: number, solution: string, planned: PlannedEdit[], label: string) => {
    if (planned.length === 0) return Promise.resolve();
    void client.cancelQueries({ queryKey: boxesQuery(itemId, solution) });
    const snapshot = read(itemId, solution);
    const refs = planned.map((p) => refNow(itemId, solution, p.key));
    write(itemId, solution, (boxes) =>
      planned.reduce((acc, p) => applyLocal(acc, p.key, p.edit), boxes),
    );
    for (const p of planned) unsaved.add(p);
    return enqueue(async () => {
      const edits = planned.flatMap((p, i): { p: PlannedEdit; e: ReviewEdit }[] => {
        if (p.edit.kind === 'add') return [{ p, e: p.edit }];
        const box = refs[i] ?? refNow(itemId, solution, p.key);
        return box ? [{ p, e: { ...p.edit, box } }] : [];
      });
      try {
        if (edits.length === 0) return;
        const [only] = edits;
        if (edits.length === 1 && only) {
          const r = await api.call('review.edit', { id: itemId, solution, edit: only.e });
          const key = session.currentKey(only.p.key);
          const later = editedLater(key, only.p);
          if (r.box && r.box.key !== key) session.rename(only.p.key, r.box.key);
          write(itemId, solution, (boxes) =>
            later ? adoptIdentity(boxes, key, r.box) : replaceBox(boxes, key, r.box),
          );
          session.record({ itemId, solution, edits: [r.inverse], label });
        } else {
          const input = { id: itemId, solution, edits: edits.map((x) => x.e) };
          const r = await api.call('review.editMany', input);
          session.record({ itemId, solution, edits: r.inverse, label });
        }
      } catch (err) {
        const keys = planned.map((p) => session.currentKey(p.key));
        write(itemId, solution, (boxes) => rollBack(boxes, snapshot, keys));
        session.fail(codedError(err));
        void refresh(itemId, solution);
      } finally {
        for (const p of planned) unsaved.delete(p);
      }
    });
  };

  /** A server-side action over many boxes, recorded as one undo step; the boxes are refetched. */
  const recorded = (
    itemId: number,
    solution: string,
    label: string,
    call: () => Promise<{ inverse: ReviewEdit[] }>,
  ) =>
    enqueue(async () => {
      try {
        const r = await call();
        session.record({ itemId, solution, edits: r.inverse, label });
      } catch (err) {
        session.fail(codedError(err));
      }
      await refresh(itemId, solution);
    });

  /** Undo or redo the newest action (on whichever item it was); answers the entry that went through. */
  const replay = (direction: 'undo' | 'redo') =>
    enqueue(async () => {
      const entry = direction === 'undo' ? session.takeUndo() : session.takeRedo();
      if (!entry) return;
      try {
        const { itemId, solution, edits } = entry;
        const r = await api.call('review.editMany', { id: itemId, solution, edits });
        const back: UndoEntry = { ...entry, edits: r.inverse };
        if (direction === 'undo') session.undone(back);
        else session.redone(back);
        await refresh(itemId, solution);
        replayed?.(entry, read(itemId, solution));
      } catch (err) {
        if (direction === 'undo') session.restoreUndo(entry);
        else session.restoreRedo(entry);
        session.fail(codedError(err));
        await refresh(entry.itemId, entry.solution);
      }
    });

  let replayed: ((entry: UndoEntry, boxes: readonly ReviewBox[]) => void) | null = null;
  return {
    apply,
    recorded,
    undo: () => replay('undo'),
    redo: () => replay('redo'),
    /** Told of every undo or redo that went through, with the item's boxes after it. */
    onReplayed(f: typeof replayed) {
      replayed = f;
    },
  };
}

export type EditRunner = ReturnType<typeof createEditRunner>;
