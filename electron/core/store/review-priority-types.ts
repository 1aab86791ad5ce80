/** The cached review priority (migration 9), as the rest of core sees it. */

/** The files a folder median is taken over: one folder's files of one kind. */
export const medianGroup = (folderId: number, kind: string) => `${folderId}:${kind}`;

/** A file showing a result, with a stored score and the basis of its solution's scores. */
export interface ScoredFile {
  solution: string;
  id: number;
  folderId: number;
  kind: string;
  /** The stored `PriorityBasis`, as JSON. */
  basis: string;
}

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
   * in it: the corrected set scores the edited file again at once (`setScore`).
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
  /** Whether any file has a stored score for the solution. */
  anyScored(solution: string): boolean;
  /** The files of one result that have a stored score (to score them again after an edit). */
  scoredFiles(resultId: number): ScoredFile[];
  /** One file's score, replaced (the corrected set calls it in the transaction of each edit). */
  setScore(solution: string, mediaId: number, score: number): void;
}
