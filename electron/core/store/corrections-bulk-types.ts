/** What a bulk writer of corrections (an import) hands the store: see `corrections.bulkWriter`. */
import type { CorrectionInput, DetectionRow } from './row-types.js';

/**
 * For a bulk writer: a content it knows had no correction before its write, with its result and
 * model boxes (just read), so the library view's mirror is computed without reading them back.
 */
export type FreshContents = (contentHash: string, solution: string) => KnownContent | undefined;

export interface KnownContent {
  resultId: number;
  model: readonly DetectionRow[];
  /** The caller knows no file of the solution has a stored review priority: none to score again. */
  unscored?: boolean;
  /** The content's number, if the caller read it (`corrections.contentsAmong`). */
  contentId?: number | undefined;
}

/** See `corrections.bulkWriter`. */
export interface CorrectionsBulkWriter {
  /**
   * Writes one content's corrections now. `known`: the content had no correction before, and
   * these are its result and model boxes (its mirror is then computed without reading back).
   */
  write(corrections: readonly CorrectionInput[], known?: KnownContent): void;
  /** Writes the library view's mirror of everything written since the last `finish`. */
  finish(): void;
}
