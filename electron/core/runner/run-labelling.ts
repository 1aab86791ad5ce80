/**
 * The credit-aware scheduler: sends planned files with bounded concurrency (from the catalog),
 * reserving each file's frames before its request, pausing for the hour or Retry-After when that is
 * near, and stopping cleanly when the key or a budget runs out. Every state change is in the store.
 */
import type { LibraryStore } from '../store/store-types.js';
import { AnswerBatch } from './answer-batch.js';
import { CreditBudget, type BudgetRefusal } from './credit-budget.js';
import { runImageTask } from './image-task.js';
import type { ItemIssue, RunPlan } from './plan-run.js';
import { progressTracker, type RunProgress } from './progress.js';
import type { CatalogView, ServicePort } from './service-port.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';
import { runVideoTask } from './video-task.js';

export type StopReason = 'key' | 'hour' | 'run-budget' | 'hour-budget';

export interface RunOptions {
  budgetFrames?: number | null;
  hourBudgetFrames?: number | null;
  concurrency?: number;
  /** Longest wait for the next hour or a Retry-After before stopping with waiting-for-credits. */
  maxPauseMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onItem?: (item: PlannedItem, outcome: TaskOutcome) => void;
}

export interface RunSummary {
  labelled: number;
  reused: number;
  failed: ItemIssue[];
  uncertain: ItemIssue[];
  waitingForCredits: number;
  framesSpent: number;
  stoppedFor: StopReason | null;
  interrupted: boolean;
}

export interface RunDeps {
  store: LibraryStore;
  service: ServicePort;
  catalog: CatalogView;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const HOUR_MS = 3_600_000;

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function runLabelling(
  deps: RunDeps,
  plan: RunPlan,
  options: RunOptions = {},
): Promise<RunSummary> {
  const { store, service, catalog } = deps;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const signal = options.signal ?? new AbortController().signal;
  const limits = catalog.limits;
  const key = await service.keyStatus(signal);
  const hourStart = now() - (now() % HOUR_MS);
  const budget = new CreditBudget({
    remaining: key.remaining,
    hourRemaining: key.hourRemaining,
    runBudget: options.budgetFrames ?? null,
    hourBudget: options.hourBudgetFrames ?? null,
    spentThisHour: store.ledger.spentSince(service.baseUrl, hourStart),
  });
  const runId = store.runs.create({
    serviceUrl: service.baseUrl,
    solution: plan.solution.id,
    estimateFrames: plan.frames,
    budgetFrames: options.budgetFrames ?? null,
    at: now(),
  });
  const ctx: TaskContext = {
    store,
    service,
    budget,
    answers: new AnswerBatch(store, now),
    solution: plan.solution,
    limits,
    runId,
    signal,
    now,
    sleep,
  };
  const summary: RunSummary = {
    labelled: 0,
    reused: 0,
    failed: plan.refused.slice(),
    uncertain: plan.uncertain.slice(),
    waitingForCredits: 0,
    framesSpent: 0,
    stoppedFor: null,
    interrupted: false,
  };
  const tracker = progressTracker(plan.items.length, now);
  const imageSlots = Math.max(
    1,
    Math.min(options.concurrency ?? limits.maxConcurrentRequests, limits.maxConcurrentRequests),
  );
  const clipSlots = Math.max(1, limits.maxConcurrentJobs);
  const queue = plan.items
    .slice()
    .sort(
      (a, b) =>
        Number(b.resumeSubmissionId !== undefined) - Number(a.resumeSubmissionId !== undefined),
    );
  const inFlight = new Map<Promise<void>, PlannedItem>();
  let images = 0;
  let clips = 0;
  let pauseUntil = 0;
  const maxPause = options.maxPauseMs ?? 0;

  /** Waits for the hour (or a Retry-After) if that is soon enough; otherwise stops the run. */
  const pauseOrStop = (reason: StopReason, waitMs: number): boolean => {
    if (waitMs <= maxPause) {
      pauseUntil = Math.max(pauseUntil, now() + waitMs);
      return true;
    }
    summary.stoppedFor ??= reason;
    return false;
  };
  const onRefusal = (refusal: BudgetRefusal): boolean =>
    refusal === 'hour' || refusal === 'hour-budget'
      ? pauseOrStop(refusal, HOUR_MS - (now() % HOUR_MS) + 1000)
      : ((summary.stoppedFor ??= refusal), false);

  /** The item's submission: an image starts as `sending` (one commit), a clip moves there itself. */
  const submissionFor = (item: PlannedItem): number => {
    const resumed = item.resumeSubmissionId;
    const video = item.media.kind === 'video';
    if (resumed !== undefined) {
      if (!video) store.submissions.setState(resumed, 'sending');
      return resumed;
    }
    return store.submissions.create({
      runId,
      mediaId: item.media.id,
      contentHash: item.media.contentHash,
      solution: plan.solution.id,
      framesReserved: item.cost,
      state: video ? 'queued' : 'sending',
    });
  };

  /** Sends an item whose slot is counted and whose submission is stored. */
  const launch = (item: PlannedItem, id: number) => {
    const video = item.media.kind === 'video';
    const task = (
      video
        ? runVideoTask(ctx, item.resumeSubmissionId !== undefined ? { ...item, cost: 0 } : item, id)
        : runImageTask(ctx, item, id)
    ).then((outcome) => {
      if (video) clips--;
      else images--;
      inFlight.delete(task);
      handle(item, id, outcome);
    });
    inFlight.set(task, item);
  };

  const requeue = (item: PlannedItem, submissionId: number, why: string) => {
    queue.unshift(item);
    store.submissions.setState(submissionId, 'cancelled', {
      errorCode: 'requeued',
      errorMessage: why,
    });
  };

  const handle = (item: PlannedItem, submissionId: number, outcome: TaskOutcome) => {
    let requeued = false;
    switch (outcome.kind) {
      case 'done':
        summary.labelled++;
        summary.framesSpent += outcome.framesSpent;
        break;
      case 'failed':
        summary.failed.push({ media: item.media, code: outcome.code, message: outcome.message });
        summary.framesSpent += outcome.framesSpent;
        break;
      case 'uncertain':
        summary.uncertain.push({ media: item.media, code: outcome.code, message: outcome.message });
        break;
      case 'cancelled':
      case 'interrupted':
        summary.interrupted = true;
        break;
      case 'no-credits':
        if (
          outcome.reason === 'hour' &&
          pauseOrStop('hour', outcome.retryAfterMs ?? HOUR_MS - (now() % HOUR_MS))
        ) {
          requeued = true;
          requeue(item, submissionId, 'Sent again after the hourly pause.');
        } else {
          summary.stoppedFor ??= outcome.reason;
          summary.waitingForCredits++;
        }
        break;
      case 'busy':
        requeued = true;
        pauseUntil = Math.max(pauseUntil, now() + outcome.retryAfterMs);
        requeue(item, submissionId, 'Sent again when the service was less busy.');
        break;
    }
    if (!requeued) tracker.complete();
    options.onItem?.(item, outcome);
    options.onProgress?.(tracker.snapshot(summary));
  };

  try {
    while (!signal.aborted) {
      if (summary.stoppedFor === null && now() < pauseUntil && inFlight.size === 0) {
        await sleep(pauseUntil - now(), signal);
        const fresh = await service.keyStatus(signal);
        budget.refresh(fresh.remaining, fresh.hourRemaining, true);
      }
      const starting: PlannedItem[] = [];
      while (summary.stoppedFor === null && now() >= pauseUntil && queue.length) {
        const index = queue.findIndex((i) =>
          i.media.kind === 'video' ? clips < clipSlots : images < imageSlots,
        );
        if (index === -1) break;
        const item = queue[index] as PlannedItem;
        if (item.resumeSubmissionId === undefined) {
          const refusal = budget.tryReserve(item.cost);
          if (refusal) {
            if (!onRefusal(refusal)) break;
            continue;
          }
        }
        queue.splice(index, 1);
        if (item.media.kind === 'video') clips++;
        else images++;
        starting.push(item);
      }
      if (starting.length > 0) {
        // The files started in one turn are recorded in one commit, before any of them is sent.
        const ids = store.transaction(() => starting.map(submissionFor));
        starting.forEach((item, i) => launch(item, ids[i] as number));
      }
      if (inFlight.size === 0 && (queue.length === 0 || summary.stoppedFor !== null)) break;
      if (inFlight.size > 0) await Promise.race(inFlight.keys());
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  } finally {
    await Promise.allSettled(inFlight.keys());
  }
  if (signal.aborted) summary.interrupted = true;
  // What was never sent because credits ran out is recorded, so the UI and the next run can see it.
  if (summary.stoppedFor !== null) {
    for (const item of queue) {
      if (item.resumeSubmissionId !== undefined) continue;
      const id = store.submissions.create({
        runId,
        mediaId: item.media.id,
        contentHash: item.media.contentHash,
        solution: plan.solution.id,
        framesReserved: 0,
      });
      store.submissions.setState(id, 'waiting-for-credits', {
        errorCode: `credits_${summary.stoppedFor}`,
        errorMessage: stopMessage(summary.stoppedFor),
      });
      summary.waitingForCredits++;
    }
  }
  summary.reused =
    plan.reused.length +
    plan.duplicates.filter(
      (m) => m.contentHash && store.results.find(m.contentHash, plan.solution.id),
    ).length;
  store.runs.finish(
    runId,
    now(),
    summary.stoppedFor ? 'stopped' : summary.interrupted ? 'stopped' : 'done',
  );
  return summary;
}

export function stopMessage(reason: StopReason): string {
  switch (reason) {
    case 'key':
      return 'The key has no frames left for this file.';
    case 'hour':
      return "This hour's frames are used up; it can go on after the hour.";
    case 'run-budget':
      return 'The budget for this run is spent.';
    case 'hour-budget':
      return 'The hourly budget is spent.';
  }
}
