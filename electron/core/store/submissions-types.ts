/** The submissions a run makes: one per file sent (or queued), with its job for clips. */
export type SubmissionState =
  'queued' | 'sending' | 'done' | 'failed' | 'uncertain' | 'cancelled' | 'waiting-for-credits';

export interface SubmissionRow {
  id: number;
  runId: number;
  mediaId: number;
  contentHash: string;
  solution: string;
  state: SubmissionState;
  framesReserved: number;
  framesSpent: number | null;
  attempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  /** Set for clips the moment the service answers 202. */
  jobId: string | null;
  jobStatus: string | null;
  jobProgress: number | null;
  updatedAt: number;
}

export interface SubmissionsApi {
  /**
   * A new submission, `queued` unless `state` says `sending` (a file sent at once: one commit
   * instead of creating it queued and moving it on; the same as the legal move queued → sending).
   */
  create(s: {
    runId: number;
    mediaId: number;
    contentHash: string;
    solution: string;
    framesReserved: number;
    state?: 'queued' | 'sending';
  }): number;
  setState(
    id: number,
    state: SubmissionState,
    extra?: {
      framesSpent?: number;
      errorCode?: string | null;
      errorMessage?: string | null;
      attempts?: number;
    },
  ): void;
  /** Stores the job id the moment the 202 arrives. */
  setJob(id: number, jobId: string, status: string): void;
  setJobProgress(id: number, status: string, progress: number): void;
  byId(id: number): SubmissionRow | undefined;
  /** Submissions in these states (e.g. sending/uncertain/queued video jobs after a restart). */
  inStates(states: readonly SubmissionState[]): SubmissionRow[];
  /** Clip submissions with a job id whose job has not finished: resumed after a crash. */
  openVideoJobs(): SubmissionRow[];
  /** The latest submission for a content hash + solution, if any. */
  latestFor(contentHash: string, solution: string): SubmissionRow | undefined;
  /** `latestFor` for many contents in one query: found ones by hash. */
  latestForMany(contentHashes: readonly string[], solution: string): Map<string, SubmissionRow>;
}
