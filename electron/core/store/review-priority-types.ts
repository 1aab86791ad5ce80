/** The cached review priority (migration 9), as the rest of core sees it. */
import type { PriorityBox } from '../review/review-priority.js';

/** What a solution's stored scores were computed with: enough to score one file again alone. */
export interface PriorityBasis {
  /** Calibrated score threshold per class. */
  thresholds: readonly (readonly [label: string, threshold: number])[];
  /** Median of live boxes per folder and kind (`medianGroup`). */
  medians: readonly (readonly [group: string, median: number])[];
}

export interface ReviewPriorityApi {
  /**
   * What the scores of a solution depend on, in one cheap string: its results, the files, the
   * auto-accept batches, and the reviewed files' evidence (by doublings, so marking one file
   * reviewed does not send the whole library back through calibration). A person's edit is not
   * in it: the store scores the edited file again at once (`rescore`).
   */
  fingerprint(solution: string): string;
  /** The fingerprint the stored scores were computed from, if any. */
  storedFingerprint(solution: string): string | undefined;
  /**
   * Replaces the solution's scores in ONE transaction, with the fingerprint they answer to and
   * the basis they were computed on.
   */
  replace(
    solution: string,
    fingerprint: string,
    basis: PriorityBasis,
    scores: readonly (readonly [mediaId: number, score: number])[],
  ): void;
  /**
   * Scores the files of one result again from its boxes as they show now, on the stored basis.
   * The store calls it in the transaction of every correction (a person's edit, an undo).
   */
  rescore(resultId: number, boxes: readonly PriorityBox[]): void;
}
