import type { Db } from '../../node-lib/sqlite.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const FINISHED: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'cancelled']);

export interface JobRow {
  id: string;
  credential_id: string;
  solution: string;
  status: JobStatus;
  upload_path: string;
  frame_cost: number;
  frames_expected: number;
  frames_done: number;
  frames_reserved: number;
  reserved_hour: number;
  /** JSON of the probed VideoInfo plus the analysed size. */
  info: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  error_code: string | null;
  error_message: string | null;
}

export interface FrameRow {
  idx: number;
  time_ms: number;
  detections: string;
}

export type NewJob = Omit<
  JobRow,
  'status' | 'frames_done' | 'started_at' | 'finished_at' | 'error_code' | 'error_message'
>;

export class JobsRepo {
  private readonly insertJob;
  private readonly byId;
  private readonly active;
  private readonly markRunning;
  private readonly finish;
  private readonly insertFrame;
  private readonly setDone;
  private readonly framesOf;
  private readonly countQueued;
  private readonly countQueuedOf;

  constructor(private readonly db: Db) {
    this.insertJob = db.prepare(`INSERT INTO jobs (id, credential_id, solution, status, upload_path,
      frame_cost, frames_expected, frames_reserved, reserved_hour, info, created_at)
      VALUES (@id, @credential_id, @solution, 'queued', @upload_path, @frame_cost, @frames_expected,
      @frames_reserved, @reserved_hour, @info, @created_at)`);
    this.byId = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
    this.active = db.prepare<[], JobRow>(
      "SELECT * FROM jobs WHERE status IN ('queued', 'running') ORDER BY created_at, id",
    );
    this.markRunning = db.prepare<[number, string]>(
      "UPDATE jobs SET status = 'running', started_at = coalesce(started_at, ?) WHERE id = ?",
    );
    this.finish = db.prepare(`UPDATE jobs SET status = @status, finished_at = @finished_at,
      error_code = @error_code, error_message = @error_message WHERE id = @id`);
    this.insertFrame = db.prepare<[string, number, number, string]>(
      'INSERT OR REPLACE INTO job_frames (job_id, idx, time_ms, detections) VALUES (?, ?, ?, ?)',
    );
    this.setDone = db.prepare<[number, string]>('UPDATE jobs SET frames_done = ? WHERE id = ?');
    this.framesOf = db.prepare<[string], FrameRow>(
      'SELECT idx, time_ms, detections FROM job_frames WHERE job_id = ? ORDER BY idx',
    );
    this.countQueued = db.prepare<[], { n: number }>(
      "SELECT count(*) AS n FROM jobs WHERE status = 'queued'",
    );
    this.countQueuedOf = db.prepare<[string], { n: number }>(
      "SELECT count(*) AS n FROM jobs WHERE status = 'queued' AND credential_id = ?",
    );
  }

  insert(job: NewJob): void {
    this.insertJob.run(job);
  }

  get(id: string): JobRow | undefined {
    return this.byId.get(id);
  }

  activeJobs(): JobRow[] {
    return this.active.all();
  }

  queuedCount(): number {
    return this.countQueued.get()?.n ?? 0;
  }

  queuedCountOf(credentialId: string): number {
    return this.countQueuedOf.get(credentialId)?.n ?? 0;
  }

  start(id: string, now: number): void {
    this.markRunning.run(now, id);
  }

  /** Stores a batch of analysed frames and the new count in one transaction. */
  appendFrames(
    id: string,
    frames: { idx: number; timeMs: number; detections: string }[],
    done: number,
  ): void {
    this.db.transaction(() => {
      for (const f of frames) this.insertFrame.run(id, f.idx, f.timeMs, f.detections);
      this.setDone.run(done, id);
    })();
  }

  frames(id: string): FrameRow[] {
    return this.framesOf.all(id);
  }

  markFinished(
    id: string,
    status: Exclude<JobStatus, 'queued' | 'running'>,
    now: number,
    error?: { code: string; message: string },
  ): void {
    this.finish.run({
      id,
      status,
      finished_at: now,
      error_code: error?.code ?? null,
      error_message: error?.message ?? null,
    });
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
