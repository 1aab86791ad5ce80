/**
 * The review's edits for the item on screen (review-edit-runner.ts does the work outside React):
 * shown and saved at once, undone across items; the save error and whether there is anything to
 * undo come from the review session store.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';
import { useApiHandle } from '../../api/api-context.js';
import { useStore } from '../../state/small-store.js';
import { createEditRunner, type PlannedEdit } from './review-edit-runner.js';
import type { ReviewSession } from './review-session.js';

export { boxesQuery, type PlannedEdit } from './review-edit-runner.js';

interface Options {
  id: number;
  solution: string;
  session: ReviewSession;
  /** Undo or redo of an edit made on another item opens that item. */
  onOpenItem(id: number): void;
  /** Undo or redo on this item went through: the edits sent, and the boxes after them. */
  onReplayed?(edits: readonly ReviewEdit[], boxes: readonly ReviewBox[]): void;
}

export function useReviewEdits(o: Options) {
  const { id, solution, session } = o;
  const { api } = useApiHandle();
  const client = useQueryClient();
  const runner = useMemo(() => createEditRunner(client, api, session), [client, api, session]);
  const live = useRef(o);
  live.current = o;
  useEffect(
    () =>
      runner.onReplayed((entry, boxes) => {
        const now = live.current;
        if (entry.itemId !== now.id) now.onOpenItem(entry.itemId);
        else now.onReplayed?.(entry.edits, boxes);
      }),
    [runner],
  );
  const error = useStore(session, (s) => s.error);
  const canUndo = useStore(session, (s) => s.undos.length > 0);
  const canRedo = useStore(session, (s) => s.redos.length > 0);

  return {
    apply: (planned: PlannedEdit[], label: string) => runner.apply(id, solution, planned, label),
    /** Accept or reject every box shown (threshold and class filter), as one action. */
    bulk: (kind: 'accept' | 'reject', minScore: number, classes: string[] | undefined) => {
      const input = { id, solution, minScore, ...(classes ? { classes } : {}) };
      const name = kind === 'accept' ? 'review.acceptAll' : 'review.rejectAll';
      return runner.recorded(id, solution, `${kind} all shown`, () => api.call(name, input));
    },
    /** A clip's whole track takes a label (every sampled frame it spans), as one action. */
    relabelTrack: (trackId: number, label: string) =>
      runner.recorded(id, solution, 'relabel track', () =>
        api.call('review.relabelTrack', { id, solution, trackId, label }),
      ),
    /** A server-side action over many boxes, one undo step (the boxes are refetched). */
    recorded: (label: string, call: () => Promise<{ inverse: ReviewEdit[] }>) =>
      runner.recorded(id, solution, label, call),
    undo: runner.undo,
    redo: runner.redo,
    newKey: session.newKey,
    currentKey: session.currentKey,
    error,
    clearError: () => session.fail(null),
    canUndo,
    canRedo,
  };
}

export type ReviewEdits = ReturnType<typeof useReviewEdits>;
