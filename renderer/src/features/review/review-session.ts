/**
 * The review session in one small external store: the selected boxes, the tool, the keys of boxes
 * drawn a moment ago (renamed when the server saves them), the last save error, and undo and redo
 * across items. The boxes themselves, with their optimistic edits, live in the query cache
 * (review-edit-runner.ts). Every change makes a new state, so readers re-render on what changed.
 */
import type { ReviewEdit } from '@shared/contract/review-schemas.js';
import type { CodedError } from '../../api/error-text.js';
import { createStore, type SmallStore } from '../../state/small-store.js';

export interface UndoEntry {
  itemId: number;
  solution: string;
  /** Applied together (review.editMany) they undo — or redo — one action. */
  edits: ReviewEdit[];
  /** What the action was, for the button's tooltip ("Undo move"). */
  label: string;
}

export interface ReviewSessionState {
  selected: ReadonlySet<string>;
  tool: 'select' | 'draw';
  /** A drawn box's key on screen → the key the server gave it. */
  renamed: ReadonlyMap<string, string>;
  error: CodedError | null;
  undos: readonly UndoEntry[];
  redos: readonly UndoEntry[];
}

const UNDO_LIMIT = 500;

export function emptySession(): ReviewSessionState {
  return {
    selected: new Set(),
    tool: 'select',
    renamed: new Map(),
    error: null,
    undos: [],
    redos: [],
  };
}

export type ReviewSession = ReturnType<typeof createReviewSession>;

export function createReviewSession(limit = UNDO_LIMIT) {
  const store: SmallStore<ReviewSessionState> = createStore(emptySession());
  let drawn = 0;
  const patch = (p: Partial<ReviewSessionState>) => store.set((s) => ({ ...s, ...p }));
  const take = (from: 'undos' | 'redos'): UndoEntry | null => {
    const entry = store.get()[from].at(-1) ?? null;
    if (entry) store.set((s) => ({ ...s, [from]: s[from].slice(0, -1) }));
    return entry;
  };
  const push = (to: 'undos' | 'redos', entry: UndoEntry) => {
    if (entry.edits.length > 0) store.set((s) => ({ ...s, [to]: [...s[to], entry].slice(-limit) }));
  };
  return {
    ...store,
    /** Another item opened: nothing selected, back to the select tool. */
    resetItem: () => patch({ selected: new Set(), tool: 'select' }),
    select: (selected: ReadonlySet<string>) => patch({ selected }),
    setTool: (tool: ReviewSessionState['tool']) => patch({ tool }),
    rename: (from: string, to: string) =>
      store.set((s) => ({ ...s, renamed: new Map(s.renamed).set(from, to) })),
    /** A key for a box drawn now, until the server names it (unique for the whole session). */
    newKey: () => `new-${++drawn}`,
    /** The key a box has now (a drawn box is renamed when its add is saved). */
    currentKey: (key: string) => store.get().renamed.get(key) ?? key,
    fail: (error: CodedError | null) => patch({ error }),
    /** A new action: it can be undone, and what was undone before can no longer be redone. */
    record(entry: UndoEntry) {
      if (entry.edits.length === 0) return;
      store.set((s) => ({ ...s, undos: [...s.undos, entry].slice(-limit), redos: [] }));
    },
    takeUndo: () => take('undos'),
    takeRedo: () => take('redos'),
    /** An undo went through: `redo` (its answer's inverse) redoes it. */
    undone: (redo: UndoEntry) => push('redos', redo),
    /** A redo went through: `undo` undoes it again (the redo stack is kept). */
    redone: (undo: UndoEntry) => push('undos', undo),
    /** A call failed: the entry goes back where it was taken from, nothing is lost. */
    restoreUndo: (entry: UndoEntry) => push('undos', entry),
    restoreRedo: (entry: UndoEntry) => push('redos', entry),
  };
}
