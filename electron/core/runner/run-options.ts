/** What a run of the scheduler (run-labelling.ts) is given: its options and its dependencies. */
import type { RunnerStore } from './runner-store.js';
import type { CostKind } from '../store/store-types.js';
import type { DiskState } from './disk-full.js';
import type { RunProgress } from './progress.js';
import type { CatalogView, KeyView, ServicePort } from './service-port.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';

export interface RunOptions {
  budgetFrames?: number | null;
  hourBudgetFrames?: number | null;
  concurrency?: number;
  /** Longest wait for the next hour or a Retry-After before stopping with waiting-for-credits. */
  maxPauseMs?: number;
  /** Aborts at once: calls on their way are cut (an upload already sent becomes uncertain). */
  signal?: AbortSignal;
  /** A clean stop: nothing new is sent, answers on their way are awaited and saved. */
  stop?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onItem?: (item: PlannedItem, outcome: TaskOutcome) => void;
  /** The disk holding the library filled up (paid answers wait in memory) or has space again. */
  onDisk?: (state: DiskState) => void;
  /**
   * Items planned after the run started (the plan keeps growing with them, and its refusals too):
   * they are sent as they come, so sending starts before the last file is read.
   */
  arrivals?: AsyncIterable<readonly PlannedItem[]>;
  /** A frame cost the catalog does not publish was learnt from the service's own count. */
  onCostLearnt?: (kind: CostKind, frames: number) => void;
  /** The key's count differed from what learnt costs accounted (entered in the ledger; relearnt). */
  onCostDrift?: (frames: number) => void;
  /** The run's id in the store, once created (its files are this run's, not "already labelled"). */
  onRunId?: (runId: number) => void;
}

export interface RunDeps {
  store: RunnerStore;
  service: ServicePort;
  catalog: CatalogView;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Checks a file is still the probed one before it is sent (`checkMedia`; tests of the
   *  scheduler with made-up paths leave it out). */
  checkFile?: TaskContext['checkFile'];
  /** The key as read a moment before (nothing sent since, nobody asked); read here if absent. */
  key?: KeyView;
}
