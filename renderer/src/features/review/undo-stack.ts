/**
 * Undo and redo of review edits across items. An entry is what to send to undo an action (the
 * inverse edits the server answered); doing it answers the edits that redo it. Pure: the caller
 * runs the calls and puts an entry back when a call fails.
 */
import type { ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';

export interface UndoEntry {
  itemId: number;
  solution: string;
  /** Applied together (review.editMany) they undo — or redo — one action. */
  edits: ReviewEdit[];
  /** What the action was, for the button's tooltip ("Undo move"). */
  label: string;
}

export class UndoStack {
  private undos: UndoEntry[] = [];
  private redos: UndoEntry[] = [];

  constructor(private readonly limit = 500) {}

  /** A new action: it can be undone, and what was undone before can no longer be redone. */
  record(entry: UndoEntry): void {
    if (entry.edits.length === 0) return;
    this.undos.push(entry);
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
  }

  /** The next action to undo, taken off the stack (null when there is none). */
  takeUndo(): UndoEntry | null {
    return this.undos.pop() ?? null;
  }

  takeRedo(): UndoEntry | null {
    return this.redos.pop() ?? null;
  }

  /** An undo went through: `redo` (its answer's inverse) redoes it. */
  undone(redo: UndoEntry): void {
    if (redo.edits.length > 0) this.redos.push(redo);
  }

  /** A redo went through: `undo` undoes it again (the redo stack is kept). */
  redone(undo: UndoEntry): void {
    if (undo.edits.length > 0) this.undos.push(undo);
  }

  /** A call failed: the entry goes back where it was taken from, nothing is lost. */
  restoreUndo(entry: UndoEntry): void {
    this.undos.push(entry);
  }

  restoreRedo(entry: UndoEntry): void {
    this.redos.push(entry);
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }

  get canRedo(): boolean {
    return this.redos.length > 0;
  }

  peekUndo(): UndoEntry | null {
    return this.undos.at(-1) ?? null;
  }

  peekRedo(): UndoEntry | null {
    return this.redos.at(-1) ?? null;
  }
}
