/** The cached review priority (migration 9), as the rest of core sees it. */

export interface ReviewPriorityApi {
  /**
   * What the scores of a solution depend on, in one cheap string: its results, the files, the
   * auto-accept batches, and the reviewed files' evidence (by doublings, so marking one file
   * reviewed does not send the whole library back through calibration).
   */
  fingerprint(solution: string): string;
  /** The fingerprint the stored scores were computed from, if any. */
  storedFingerprint(solution: string): string | undefined;
  /** Replaces the solution's scores in ONE transaction, with the fingerprint they answer to. */
  replace(
    solution: string,
    fingerprint: string,
    scores: readonly (readonly [mediaId: number, score: number])[],
  ): void;
}
