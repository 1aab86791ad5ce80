import type { RunnerStore } from './runner-store.js';
import type { FileError } from '../library/media-types.js';
import type { CostKind, MediaRecord } from '../store/store-types.js';
import type { AnswerBatch } from './answer-batch.js';
import type { CreditBudget } from './credit-budget.js';
import type { DiskWatch } from './disk-full.js';
import type { Solution } from './cost-estimate.js';
import type { CatalogView, ServicePort } from './service-port.js';

export interface TaskContext {
  store: RunnerStore;
  service: ServicePort;
  budget: CreditBudget;
  /** Commits finished image answers, one transaction per event-loop turn. */
  answers: AnswerBatch;
  solution: Solution;
  limits: CatalogView['limits'];
  runId: number;
  /** Aborts calls on their way (a second Ctrl-C): an upload already sent becomes uncertain. */
  signal: AbortSignal;
  /** Asks for a clean stop (Ctrl-C): answers on their way are awaited, clips are left running. */
  stop: AbortSignal;
  /** Saves refused for lack of space wait here until space returns. */
  disk: DiskWatch;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onJobProgress?: (media: MediaRecord, progress: number) => void;
  /** A call taught the cost of one frame of this medium (stored, and used for the rest of the run). */
  learnCost: (kind: CostKind, frames: number) => void;
  /**
   * The service answered this image and the answer is queued for its commit (`answers`): the
   * request's slot is free. The task still ends only once the answer is stored.
   */
  answered?: (item: PlannedItem) => void;
  /**
   * Why a file must not be sent (it is no longer the file probed), or undefined; or the bytes of
   * a small file read on the descriptor that was checked (sent as they are, not read again).
   */
  checkFile?: (
    media: MediaRecord,
    rootPath: string | undefined,
  ) => Promise<FileError | { bytes?: Uint8Array } | undefined>;
}

export interface PlannedItem {
  media: MediaRecord & { contentHash: string };
  cost: number;
  /**
   * The solution's cost for this medium is not known yet: the file is sent alone, and what it
   * cost (read from the service) teaches the cost to the rest of the run. `cost` is 0 meanwhile.
   */
  costUnknown?: boolean;
  /** Set when resuming a clip whose job already exists: never upload it again. */
  resumeSubmissionId?: number;
}

/** A wait the service asked for that the run does not hold: what it was for, and how long. */
export interface ServiceWait {
  reason: string;
  waitMs: number;
}

export type TaskOutcome =
  /** `note`: what the service reported beside a result that is kept (a poll with both). */
  | { kind: 'done'; framesSpent: number; boxes: number; note?: string }
  | { kind: 'failed'; framesSpent: number; code: string; message: string }
  /** `framesSpent` when the service is known to have charged it (a paid answer the disk could not hold). */
  | { kind: 'uncertain'; code: string; message: string; framesSpent?: number }
  | { kind: 'cancelled'; framesSpent: number }
  /**
   * The run stopped while a clip's job runs on: it stays open and is polled again next time.
   * `serviceWait`: the service asked for a wait longer than the run holds (the run pauses).
   */
  | { kind: 'interrupted'; framesSpent: number; serviceWait?: ServiceWait }
  /** Credits ran out at the service: 402, or the hourly limit (429) with when to try again. */
  | { kind: 'no-credits'; reason: 'key' | 'hour'; retryAfterMs?: number }
  /**
   * The service is busy (429 concurrency, or a Retry-After longer than a request is held): try
   * the file again later. `said`: the service's own words, for the pause's reason.
   */
  | { kind: 'busy'; retryAfterMs: number; said?: string };
