/**
 * The credit-aware scheduler: sends planned files with bounded concurrency (from the catalog),
 * reserving each file's frames before its request, pausing for the hour or Retry-After when that is
 * near, and stopping cleanly when the key or a budget runs out, when asked to (Ctrl-C: answers on
 * their way are awaited and saved) or when the disk is full. Every state change is in the store.
 */
import { CostLearning } from './cost-learning.js';
import { AnswerBatch } from './answer-batch.js';
import { CreditBudget, type BudgetRefusal } from './credit-budget.js';
import { DiskFullError, DiskWatch, isDiskFull } from './disk-full.js';
import { runImageTask } from './image-task.js';
import { emptySummary, finishRun, type RunSummary } from './run-result.js';
import type { RunPlan } from './plan-run.js';
import { PlanFeed } from './plan-feed.js';
import { Wakeup } from './wakeup.js';
import { progressTracker } from './progress.js';
import { abortableSleep, waitText, type StopReason } from './run-stop.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';
import { runVideoTask } from './video-task.js';
import type { RunDeps, RunOptions } from './run-options.js';
import { clockNow } from '../../node-lib/clock.js';
import { clampWait } from '../service/poll-interval.js';

export { abortableSleep, stopMessage, type StopReason } from './run-stop.js';
export type { RunSummary } from './run-result.js';

export type { RunDeps, RunOptions } from './run-options.js';

const HOUR_MS = 3_600_000;
/** A busy service's Retry-After up to this is always waited out (longer: up to maxPauseMs). */
const BUSY_WAIT_HELD_MS = 60_000;

export async function runLabelling(
  deps: RunDeps,
  plan: RunPlan,
  options: RunOptions = {},
): Promise<RunSummary> {
  const { store, service, catalog } = deps;
  const now = deps.now ?? clockNow;
  const sleep = deps.sleep ?? abortableSleep;
  const signal = options.signal ?? new AbortController().signal;
  const stop = options.stop ?? new AbortController().signal;
  const limits = catalog.limits;
  const key = deps.key ?? (await service.keyStatus(signal));
  const startedAt = now();
  const hourStart = startedAt - (startedAt % HOUR_MS);
  const budget = new CreditBudget({
    remaining: key.remaining,
    hourRemaining: key.hourRemaining,
    runBudget: options.budgetFrames ?? null,
    hourBudget: options.hourBudgetFrames ?? null,
    spentThisHour: store.ledger.spentSince(service.baseUrl, hourStart),
    at: startedAt,
  });
  let runId: number;
  try {
    runId = store.runs.create({
      serviceUrl: service.baseUrl,
      solution: plan.solution.id,
      estimateFrames: plan.frames,
      budgetFrames: options.budgetFrames ?? null,
      at: startedAt,
    });
    options.onRunId?.(runId);
  } catch (err) {
    if (!isDiskFull(err)) throw err;
    throw new DiskFullError('The disk holding the library is full: nothing was sent.', {
      cause: err,
    });
  }
  const summary = emptySummary(plan);
  const known = { refused: plan.refused.length, uncertain: plan.uncertain.length };
  const costs = new Map(plan.items.map((i) => [i.media.id, i.cost]));
  const tracker = progressTracker(
    plan.items.length,
    plan.items.reduce((n, i) => n + i.cost, 0),
    now,
  );
  const report = () => options.onProgress?.(tracker.snapshot(summary));
  const learning = new CostLearning({
    store,
    serviceUrl: service.baseUrl,
    catalog,
    solution: plan.solution,
    now,
    onLearnt: options.onCostLearnt,
    onDrift: options.onCostDrift,
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
    stop,
    disk: new DiskWatch(options.onDisk),
    now,
    sleep,
    ...(deps.checkFile ? { checkFile: deps.checkFile } : {}),
    onJobProgress: (media, progress) => {
      tracker.progress(media.id, costs.get(media.id) ?? 0, progress);
      report();
    },
    answered: (item) => {
      // Freed once: the task's end (below) frees only the slots not freed here.
      if (answeredEarly.has(item)) return;
      answeredEarly.add(item);
      images--;
      slotFreed.wakeAtTurnEnd();
    },
    learnCost: (kind, frames) => {
      learning.learn(kind, frames);
      ctx.solution = learning.solution;
      for (const queued of queue) learning.reprice(queued);
    },
  };
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
  /** Images whose answer arrived and waits for its commit: their slot is already free. */
  const answeredEarly = new Set<PlannedItem>();
  const slotFreed = new Wakeup();
  let images = 0;
  let clips = 0;
  let pauseUntil = 0;
  const maxPause = options.maxPauseMs ?? 0;
  // Planned while sending: each batch is queued (and counted in the progress) as it arrives.
  const feed = new PlanFeed(options.arrivals, (items) => {
    for (const item of items) {
      costs.set(item.media.id, item.cost);
      queue.push(item);
    }
    tracker.grow(
      items.length,
      items.reduce((n, i) => n + i.cost, 0),
    );
    report();
  });
  const feedFailed = () => feed.error !== undefined && !signal.aborted && !stop.aborted;
  const halted = () => signal.aborted || stop.aborted || summary.diskFull || feedFailed();
  const waits = AbortSignal.any([signal, stop]);

  /** Waits for the hour (or a Retry-After) if that is soon enough; otherwise stops the run. */
  const pauseOrStop = (reason: StopReason, waitMs: number): boolean => {
    if (waitMs <= maxPause) {
      pauseUntil = Math.max(pauseUntil, now() + clampWait(waitMs));
      return true;
    }
    summary.stoppedFor ??= reason;
    return false;
  };
  /** The service asked for a wait the run does not hold: the run pauses (stops), saying so. */
  const pauseForService = (reason: string, waitMs: number) => {
    summary.stoppedFor ??= 'service-wait';
    summary.serviceWait ??= { reason, waitMs };
  };
  const onRefusal = (refusal: BudgetRefusal): boolean =>
    refusal === 'hour' || refusal === 'hour-budget'
      ? pauseOrStop(refusal, HOUR_MS - (now() % HOUR_MS) + 1000)
      : ((summary.stoppedFor ??= refusal), false);

  /** The item's submission: created `sending` (one commit); a resumed clip keeps its own. */
  const submissionFor = (item: PlannedItem): number =>
    item.resumeSubmissionId ??
    store.submissions.create({
      runId,
      mediaId: item.media.id,
      contentHash: item.media.contentHash,
      solution: plan.solution.id,
      framesReserved: item.cost,
      state: 'sending',
    });

  /** Sends an item whose slot is counted and whose submission is stored. */
  const launch = (item: PlannedItem, id: number) => {
    const video = item.media.kind === 'video';
    const task = (
      video
        ? runVideoTask(ctx, item.resumeSubmissionId !== undefined ? { ...item, cost: 0 } : item, id)
        : runImageTask(ctx, item, id)
    ).then((outcome) => {
      if (item.costUnknown) learning.busy = false;
      if (video) clips--;
      else if (!answeredEarly.delete(item)) images--;
      inFlight.delete(task);
      handle(item, id, outcome);
    });
    inFlight.set(task, item);
  };

  const requeue = (item: PlannedItem, submissionId: number, why: string) => {
    queue.unshift(item);
    try {
      store.submissions.setState(submissionId, 'cancelled', {
        errorCode: 'requeued',
        errorMessage: why,
      });
    } catch (err) {
      // It stays waiting-for-credits: nothing was charged, and the next run sends it.
      if (!isDiskFull(err)) throw err;
    }
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
        summary.framesSpent += outcome.framesSpent ?? 0;
        break;
      case 'cancelled':
        summary.interrupted = true;
        summary.framesSpent += outcome.framesSpent;
        break;
      case 'interrupted':
        if (outcome.serviceWait)
          pauseForService(outcome.serviceWait.reason, outcome.serviceWait.waitMs);
        else summary.interrupted = true;
        summary.clipsOpen++;
        summary.framesSpent += outcome.framesSpent;
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
        if (outcome.retryAfterMs > Math.max(maxPause, BUSY_WAIT_HELD_MS)) {
          // Nothing was sent for it: it waits (recorded so) for a run after the service's wait.
          pauseForService(
            `the service was busy and asked to wait ${waitText(outcome.retryAfterMs)} (Retry-After)${outcome.said ? `: "${outcome.said}"` : ''}`,
            outcome.retryAfterMs,
          );
          summary.waitingForCredits++;
          break;
        }
        requeued = true;
        pauseUntil = Math.max(pauseUntil, now() + clampWait(outcome.retryAfterMs));
        requeue(item, submissionId, 'Sent again when the service was less busy.');
        break;
    }
    if (!requeued) tracker.complete(item.media.id, item.cost);
    options.onItem?.(item, outcome);
    report();
  };

  try {
    while (!signal.aborted) {
      if (!halted() && summary.stoppedFor === null && now() < pauseUntil && inFlight.size === 0) {
        // Never below the floor: the key is read after each pause, at most four times a second.
        await sleep(clampWait(pauseUntil - now()), waits).catch(() => undefined);
        if (halted()) continue;
        const fresh = await service.keyStatus(signal);
        budget.refresh(fresh.remaining, fresh.hourRemaining, now());
      }
      budget.rollHour(now());
      const starting: PlannedItem[] = [];
      while (!halted() && summary.stoppedFor === null && now() >= pauseUntil && queue.length) {
        if (learning.busy) break;
        const index = queue.findIndex((i) =>
          i.media.kind === 'video' ? clips < clipSlots : images < imageSlots,
        );
        if (index === -1) break;
        const item = queue[index] as PlannedItem;
        // A file whose cost is unknown goes alone: only its own cost is at risk before it is known.
        const alone = learning.mustGoAlone(item);
        if (alone && (inFlight.size > 0 || starting.length > 0)) break;
        if (item.resumeSubmissionId === undefined) {
          const refusal = alone ? budget.refusalFor(1) : budget.tryReserve(item.cost);
          if (refusal) {
            if (!onRefusal(refusal)) break;
            continue;
          }
        }
        queue.splice(index, 1);
        if (item.media.kind === 'video') clips++;
        else images++;
        starting.push(item);
        if (alone) {
          learning.busy = true;
          break;
        }
      }
      if (starting.length > 0) startAll(starting);
      // Stopped for credits, the rest of the plan is still taken in: it is recorded as waiting.
      const idle = queue.length === 0 || summary.stoppedFor !== null || halted();
      if (inFlight.size === 0 && idle && (feed.done || halted())) break;
      const waitFor = feed.done ? [...inFlight.keys()] : [...inFlight.keys(), feed.next()];
      if (waitFor.length > 0) await Promise.race([...waitFor, slotFreed.next()]);
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  } finally {
    await Promise.allSettled(inFlight.keys());
    // Halted (or thrown): the rest of the plan is not needed; a normal end has taken it all in.
    await feed.stop();
  }

  /**
   * The files started in one turn are recorded in one commit, before any of them is sent; the
   * answers that freed their slots (waiting for their commit) land in the same commit.
   */
  function startAll(starting: PlannedItem[]): void {
    let ids: number[];
    try {
      ids = ctx.answers.commitWith(() => starting.map(submissionFor));
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      // Nothing of these was sent: they go back, and nothing new is sent while the disk is full.
      for (const item of starting.reverse()) {
        if (item.resumeSubmissionId === undefined) budget.settle(item.cost, 0);
        if (item.media.kind === 'video') clips--;
        else images--;
        queue.unshift(item);
      }
      // Answers that freed their slots wait for space (their tasks retry, and say the disk is
      // full): the run goes on once they are saved, as when their slots were held.
      if (answeredEarly.size > 0) return;
      summary.diskFull = true;
      ctx.disk.refused();
      return;
    }
    starting.forEach((item, i) => launch(item, ids[i] as number));
  }

  if (signal.aborted || stop.aborted || feedFailed()) summary.interrupted = true;
  // What was refused or found uncertain while planning went on comes before the run's own.
  const joined = <T>(mine: T[], planned: T[], at: number) => [
    ...mine.slice(0, at),
    ...planned.slice(at),
    ...mine.slice(at),
  ];
  summary.failed = joined(summary.failed, plan.refused, known.refused);
  summary.uncertain = joined(summary.uncertain, plan.uncertain, known.uncertain);
  // Every call of the run has its answer (none open, none uncertain): the key's count must agree.
  const settled =
    !summary.interrupted &&
    summary.clipsOpen === 0 &&
    summary.uncertain.length === plan.uncertain.length;
  if (learning.reliesOnLearnt && settled && plan.items.length > 0)
    summary.framesSpent += await learning.verify(service, key, summary.framesSpent);
  finishRun(store, plan, runId, queue, summary, now);
  // The run's own record may be the write the full disk refused: the user is told all the same.
  if (summary.diskFull) ctx.disk.refused();
  summary.budgetUsed = budget.spent;
  if (feedFailed()) throw feed.error;
  return summary;
}
