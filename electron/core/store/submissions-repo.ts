import type { Db } from '../../node-lib/sqlite.js';
import { StoreError } from './store-error.js';
import { canMove, TERMINAL_STATES } from './submission-states.js';
import type { LibraryStore, SubmissionRow, SubmissionState } from './store-types.js';

type Submissions = LibraryStore['submissions'];
type Extra = NonNullable<Parameters<Submissions['setState']>[2]>;

interface SubmissionDbRow {
  id: number;
  run_id: number;
  media_id: number;
  content_hash: string;
  solution: string;
  state: SubmissionState;
  frames_reserved: number;
  frames_spent: number | null;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  job_id: string | null;
  job_status: string | null;
  job_progress: number | null;
  updated_at: number;
}

const toSubmission = (r: SubmissionDbRow): SubmissionRow => ({
  id: r.id,
  runId: r.run_id,
  mediaId: r.media_id,
  contentHash: r.content_hash,
  solution: r.solution,
  state: r.state,
  framesReserved: r.frames_reserved,
  framesSpent: r.frames_spent,
  attempts: r.attempts,
  errorCode: r.error_code,
  errorMessage: r.error_message,
  jobId: r.job_id,
  jobStatus: r.job_status,
  jobProgress: r.job_progress,
  updatedAt: r.updated_at,
});

const has = (v: unknown) => (v === undefined ? 0 : 1);
const terminalList = JSON.stringify(TERMINAL_STATES);

export class SubmissionsRepo implements Submissions {
  private readonly createStmt;
  private readonly byIdStmt;
  private readonly stateStmt;
  private readonly jobStmt;
  private readonly progressStmt;
  private readonly inStatesStmt;
  private readonly openJobsStmt;
  private readonly latestStmt;
  private readonly latestManyStmt;
  private readonly anyStmt;
  private readonly setStateTx;
  private readonly setStateBody;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.createStmt = db.prepare<[Record<string, unknown>]>(`
      INSERT INTO submissions (run_id, media_id, content_hash, solution, state, frames_reserved,
        updated_at)
      VALUES (@runId, @mediaId, @contentHash, @solution, @state, @framesReserved, @at)`);
    this.byIdStmt = db.prepare<[number], SubmissionDbRow>('SELECT * FROM submissions WHERE id = ?');
    // An extra left undefined keeps the stored value; an explicit null clears it.
    this.stateStmt = db.prepare<[Record<string, unknown>]>(`
      UPDATE submissions SET state = @state, updated_at = @at,
        frames_spent = CASE WHEN @hasSpent THEN @framesSpent ELSE frames_spent END,
        error_code = CASE WHEN @hasCode THEN @errorCode ELSE error_code END,
        error_message = CASE WHEN @hasMessage THEN @errorMessage ELSE error_message END,
        attempts = CASE WHEN @hasAttempts THEN @attempts ELSE attempts END
      WHERE id = @id`);
    this.jobStmt = db.prepare<[string, string, number, number]>(
      'UPDATE submissions SET job_id = ?, job_status = ?, job_progress = 0, updated_at = ? WHERE id = ?',
    );
    this.progressStmt = db.prepare<[string, number, number, number]>(
      'UPDATE submissions SET job_status = ?, job_progress = ?, updated_at = ? WHERE id = ?',
    );
    this.inStatesStmt = db.prepare<[string], SubmissionDbRow>(
      'SELECT * FROM submissions WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id',
    );
    // The submission's state, not the job's, decides: a job that succeeded while we were down
    // still has its result to fetch and save.
    this.openJobsStmt = db.prepare<[string], SubmissionDbRow>(`
      SELECT * FROM submissions WHERE job_id IS NOT NULL
        AND state NOT IN (SELECT value FROM json_each(?)) ORDER BY id`);
    this.latestStmt = db.prepare<[string, string], SubmissionDbRow>(`
      SELECT * FROM submissions WHERE content_hash = ? AND solution = ? ORDER BY id DESC LIMIT 1`);
    this.anyStmt = db.prepare<[], number>('SELECT 1 FROM submissions LIMIT 1').pluck();
    this.latestManyStmt = db.prepare<[string, string], SubmissionDbRow>(`
      SELECT * FROM submissions WHERE id IN (
        SELECT max(id) FROM submissions
        WHERE solution = ? AND content_hash IN (SELECT value FROM json_each(?))
        GROUP BY content_hash)`);

    this.setStateBody = (id: number, state: SubmissionState, extra: Extra) => {
      const current = this.byIdStmt.get(id);
      if (!current) throw new StoreError('not_found', `submission ${id} does not exist`);
      if (!canMove(current.state, state)) {
        throw new StoreError(
          'illegal_transition',
          `submission ${id} cannot go from ${current.state} to ${state}`,
        );
      }
      this.stateStmt.run({
        id,
        state,
        at: this.now(),
        hasSpent: has(extra.framesSpent),
        framesSpent: extra.framesSpent ?? null,
        hasCode: has(extra.errorCode),
        errorCode: extra.errorCode ?? null,
        hasMessage: has(extra.errorMessage),
        errorMessage: extra.errorMessage ?? null,
        hasAttempts: has(extra.attempts),
        attempts: extra.attempts ?? null,
      });
    };
    this.setStateTx = db.transaction(this.setStateBody);
  }

  /** Starts `queued`, or `sending` when asked (as the legal move queued → sending); nothing else. */
  create(s: Parameters<Submissions['create']>[0]): number {
    const state: SubmissionState = s.state ?? 'queued';
    if (state !== 'queued' && (state !== 'sending' || !canMove('queued', state))) {
      throw new StoreError('illegal_transition', `a submission cannot start as ${String(state)}`);
    }
    return Number(
      this.createStmt.run({
        runId: s.runId,
        mediaId: s.mediaId,
        contentHash: s.contentHash,
        solution: s.solution,
        framesReserved: s.framesReserved,
        state,
        at: this.now(),
      }).lastInsertRowid,
    );
  }

  /** Throws StoreError `illegal_transition` (e.g. done → sending) or `not_found`. */
  setState(id: number, state: SubmissionState, extra: Extra = {}): void {
    // Inside a caller's transaction (a run's answer commit, once per file) no savepoint of its
    // own: it writes once, after its checks, so a refusal leaves nothing half-written either way.
    if (this.db.inTransaction) this.setStateBody(id, state, extra);
    else this.setStateTx(id, state, extra);
  }

  setJob(id: number, jobId: string, status: string): void {
    this.expectOne(this.jobStmt.run(jobId, status, this.now(), id).changes, id);
  }

  setJobProgress(id: number, status: string, progress: number): void {
    this.expectOne(this.progressStmt.run(status, progress, this.now(), id).changes, id);
  }

  byId(id: number): SubmissionRow | undefined {
    const r = this.byIdStmt.get(id);
    return r && toSubmission(r);
  }

  inStates(states: readonly SubmissionState[]): SubmissionRow[] {
    return this.inStatesStmt.all(JSON.stringify(states)).map(toSubmission);
  }

  openVideoJobs(): SubmissionRow[] {
    return this.openJobsStmt.all(terminalList).map(toSubmission);
  }

  latestFor(contentHash: string, solution: string): SubmissionRow | undefined {
    const r = this.latestStmt.get(contentHash, solution);
    return r && toSubmission(r);
  }

  latestForMany(contentHashes: readonly string[], solution: string): Map<string, SubmissionRow> {
    const found = new Map<string, SubmissionRow>();
    // Nothing sent yet (a first plan): a thousand index probes per call would find nothing.
    if (this.anyStmt.get() === undefined) return found;
    for (const r of this.latestManyStmt.all(solution, JSON.stringify(contentHashes)))
      found.set(r.content_hash, toSubmission(r));
    return found;
  }

  // A job id written to nowhere would be a job we pay for and never collect.
  private expectOne(changes: number, id: number): void {
    if (changes !== 1) throw new StoreError('not_found', `submission ${id} does not exist`);
  }
}
