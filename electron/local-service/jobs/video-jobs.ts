/**
 * Video jobs: a bounded queue, a bounded number running, progress stored frame by frame so that a
 * restart resumes a job where it stopped, and frames settled at the end (unanalysed ones refunded).
 */
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { ServiceLimits } from '../config.js';
import type { CreditLedger, Reservation } from '../credits/ledger.js';
import type { DetectionEngine } from '../engine/engine-types.js';
import { ApiError } from '../http/api-error.js';
import { decodeVideoFrames } from '../media/video-frames.js';
import type { VideoInfo } from '../media/video-probe.js';
import { FINISHED, type JobRow, type JobsRepo } from '../store/jobs-repo.js';
import { runJobFrames } from './run-job-frames.js';

export interface StoredJobInfo extends VideoInfo {
  analysedWidth: number;
  analysedHeight: number;
  sampleFps: number;
}

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

export interface VideoJobsDeps {
  repo: JobsRepo;
  ledger: CreditLedger;
  engine: DetectionEngine;
  limits: ServiceLimits;
  now: () => number;
  log: (line: string) => void;
  /** Analyses frames of one job in parallel up to this many (the engine's worker count). */
  framesInFlight: number;
}

export class VideoJobs {
  private readonly queue: string[] = [];
  private readonly running = new Map<string, Running>();
  private closed = false;

  constructor(private readonly deps: VideoJobsDeps) {}

  /** After a restart: jobs that were running resume from their last stored frame, queued ones wait again. */
  resumeStored(): void {
    const active = this.deps.repo.activeJobs().filter((job) => {
      if (existsSync(job.upload_path)) return true;
      // Never silently lost: a job whose clip is gone fails with a reason, and its unanalysed frames are refunded.
      this.finish(job, 'failed', {
        code: 'upload_lost',
        message:
          'The service restarted and the uploaded clip was no longer on disk; submit it again.',
      });
      return false;
    });
    for (const job of active.filter((j) => j.status === 'running')) this.queue.push(job.id);
    for (const job of active.filter((j) => j.status === 'queued')) this.queue.push(job.id);
    if (active.length) this.deps.log(`resuming ${active.length} video job(s) from the last run`);
    this.pump();
  }

  queueLength(): number {
    return this.queue.length;
  }

  /** Throws 429 when no more jobs may wait. */
  assertRoom(): void {
    if (this.queue.length >= this.deps.limits.maxQueuedJobs) {
      throw new ApiError(
        429,
        'queue_full',
        `At most ${this.deps.limits.maxQueuedJobs} video jobs may wait; try again shortly.`,
        {
          'Retry-After': String(Math.ceil(this.pollIntervalMs() / 1000) + 1),
        },
      );
    }
  }

  enqueue(jobId: string): void {
    this.queue.push(jobId);
    this.pump();
  }

  /** 1-based place in the queue; 0 once running or finished. */
  queuePosition(jobId: string): number {
    return this.queue.indexOf(jobId) + 1;
  }

  /** Rises with the queue, within the published bounds. */
  pollIntervalMs(): number {
    const { min, max } = this.deps.limits.pollIntervalMs;
    return Math.min(max, min + 250 * this.queue.length);
  }

  /** Cancels a queued or running job; resolves once it has stopped and its frames are settled. */
  async cancel(jobId: string): Promise<void> {
    const at = this.queue.indexOf(jobId);
    if (at !== -1) {
      this.queue.splice(at, 1);
      const job = this.deps.repo.get(jobId);
      if (job && !FINISHED.has(job.status)) this.finish(job, 'cancelled');
      return;
    }
    const run = this.running.get(jobId);
    if (run) {
      run.abort.abort();
      await run.done;
      return;
    }
    // Stored but not picked up (not resumed yet, or a service that runs no analysis): settled here.
    const job = this.deps.repo.get(jobId);
    if (job && !FINISHED.has(job.status)) this.finish(job, 'cancelled');
  }

  async close(): Promise<void> {
    this.closed = true;
    // Stopping for shutdown leaves jobs 'running' in the store, so the next start resumes them.
    const runs = [...this.running.values()];
    for (const r of runs) r.abort.abort(new Error('shutdown'));
    await Promise.all(runs.map((r) => r.done));
  }

  private pump(): void {
    while (
      !this.closed &&
      this.running.size < this.deps.limits.maxConcurrentJobs &&
      this.queue.length
    ) {
      const id = this.queue.shift() as string;
      const job = this.deps.repo.get(id);
      if (!job || FINISHED.has(job.status)) continue;
      const abort = new AbortController();
      const done = this.run(job, abort.signal).finally(() => {
        this.running.delete(id);
        this.pump();
      });
      this.running.set(id, { abort, done });
    }
  }

  private reservationOf(job: JobRow): Reservation {
    return {
      credentialId: job.credential_id,
      frames: job.frames_reserved,
      hour: job.reserved_hour,
    };
  }

  private async run(job: JobRow, signal: AbortSignal): Promise<void> {
    const { repo, engine, log } = this.deps;
    repo.start(job.id, this.deps.now());
    const info = JSON.parse(job.info) as StoredJobInfo;
    try {
      const frames = decodeVideoFrames(job.upload_path, {
        sampleFps: info.sampleFps,
        maxAnalysedSide: this.deps.limits.maxAnalysedSide,
        info,
        signal,
        startAtFrame: job.frames_done,
      });
      await runJobFrames({ job, frames, engine, repo, signal, inFlight: this.deps.framesInFlight });
      this.finish(job, 'succeeded');
    } catch (err) {
      if (signal.aborted) {
        if (signal.reason instanceof Error && signal.reason.message === 'shutdown') return;
        this.finish(job, 'cancelled');
        return;
      }
      const error =
        err instanceof ApiError
          ? { code: err.code, message: err.message }
          : { code: 'analysis_failed', message: `The clip could not be analysed: ${String(err)}` };
      log(`video job ${job.id} failed: ${error.code}`);
      this.finish(job, 'failed', error);
    }
  }

  private finish(
    job: JobRow,
    status: 'succeeded' | 'failed' | 'cancelled',
    error?: { code: string; message: string },
  ): void {
    const fresh = this.deps.repo.get(job.id) ?? job;
    const spent = fresh.frames_done * fresh.frame_cost;
    this.deps.repo.transaction(() => {
      this.deps.repo.markFinished(job.id, status, this.deps.now(), error);
      this.deps.ledger.settle(this.reservationOf(fresh), spent);
    });
    void unlink(job.upload_path).catch(() => undefined);
  }
}
