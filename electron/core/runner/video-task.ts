/**
 * One clip as a durable job: the job id is stored the moment the 202 arrives, polls honour
 * pollIntervalMs (clamped to the catalog's bounds), and after a restart the stored job is polled
 * again instead of uploading the clip twice.
 */
import { askedWait, clampPollInterval } from '../service/poll-interval.js';
import { isRetriable } from '../service/retry-policy.js';
import { AnswerLimitError, AnswerNotUnderstoodError } from '../service/service-errors.js';
import { classifyError, limitOutcome } from './classify-error.js';
import { DiskFullError, isDiskFull } from './disk-full.js';
import { recordDurably, refusedToSend } from './image-task.js';
import { holdAssumed } from './hold-assumed.js';
import { keepRawAnswer } from './keep-raw-answer.js';
import { spentOf, spentSince } from './learn-cost.js';
import type { JobAnswer, KeyView } from './service-port.js';
import { waitText } from './run-stop.js';
import type { PlannedItem, ServiceWait, TaskContext, TaskOutcome } from './task-types.js';
import { toDetectionInputs } from './to-detections.js';

export async function runVideoTask(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
): Promise<TaskOutcome> {
  const { store, service, solution } = ctx;
  const row = store.submissions.byId(submissionId);
  let jobId = row?.jobId ?? null;
  /** What the key has paid for this clip so far (when its job was created, maybe by an earlier run). */
  let charged = row?.framesSpent ?? 0;
  /** What this run saw the key pay: the summary's frames are the key's frames. */
  let chargedNow = 0;
  /** Frames still reserved in the budget for this clip (0 once the job's charge is known). */
  let reserved = item.cost;
  if (!jobId) {
    const refused = await refusedToSend(ctx, item, submissionId);
    if (refused) return refused;
  }
  /** The key before the clip was sent, when its cost is being learnt. */
  let before: KeyView | undefined;
  try {
    /** The service's last pollIntervalMs (absent: the catalog's minimum). */
    let hint: number | null | undefined;
    if (!jobId) {
      // Its cost is unknown: the key is read before, after the 202 and at the end (alone in flight).
      before = item.costUnknown ? await service.keyStatus(ctx.signal) : undefined;
      // The submission is already `sending` (created so by the scheduler).
      const submitted = await service.submitVideo({
        solution: solution.id,
        file: item.media.path,
        signal: ctx.signal,
      });
      const id = submitted.jobId;
      jobId = id;
      // The service holds the clip's frames from the 202 on (and refunds the unanalysed ones at
      // the end): the key pays now, so the ledger, the budget and the summary count it now.
      chargedNow =
        submitted.credits?.reserved ??
        spentOf(submitted.credits) ??
        (before ? await spentSince(service, before, ctx.signal).catch(() => item.cost) : item.cost);
      charged = chargedNow;
      ctx.budget.settle(reserved, chargedNow);
      reserved = 0;
      await ctx.disk.retry(
        () =>
          store.transaction(() => {
            store.submissions.setJob(submissionId, id, submitted.status);
            store.submissions.setState(submissionId, 'sending', { framesSpent: chargedNow });
            store.ledger.record({
              serviceUrl: service.baseUrl,
              submissionId,
              frames: chargedNow,
              at: ctx.now(),
            });
          }),
        ctx.sleep,
        ctx.signal,
      );
      hint = submitted.pollIntervalMs;
    }
    const job = await pollUntilFinished(ctx, item, submissionId, jobId, hint);
    const spent = await finalSpend(ctx, job, charged, before);
    const outcome = await settle(ctx, item, submissionId, job, { charged, reserved, spent });
    reserved = 0;
    return 'framesSpent' in outcome
      ? { ...outcome, framesSpent: chargedNow + (outcome.framesSpent ?? 0) }
      : outcome;
  } catch (err) {
    if (err instanceof AnswerNotUnderstoodError) {
      // A 202 without a job id we can read (the clip was charged; its job cannot be polled), or a
      // finished job's result we cannot read (already charged at submission).
      // While its cost is learnt (nothing reserved), the key says what the 202 cost.
      const charged =
        reserved > 0
          ? item.cost
          : before && !jobId
            ? await spentSince(service, before, ctx.signal).catch(() => 0)
            : 0;
      ctx.budget.settle(reserved, charged);
      const kept = await keepRawAnswer(ctx, item, submissionId, err, charged);
      // The summary counts what this run saw the key pay, the job's creation included.
      return { ...kept, framesSpent: chargedNow + charged };
    }
    ctx.budget.settle(reserved, 0);
    if (err instanceof DiskFullError) {
      // Aborted while the disk was full: the job is paid for and its id may not be stored.
      return {
        kind: 'uncertain',
        code: 'disk_full',
        message: `${err.message} Free some space, then send it again with --retry-uncertain.`,
        framesSpent: chargedNow,
      };
    }
    if (jobId && err instanceof ServiceWaitError) {
      // Paused, not polled: the job stays open at the service and the next run polls it again.
      return { kind: 'interrupted', framesSpent: chargedNow, serviceWait: err.wait };
    }
    if (jobId && (ctx.signal.aborted || ctx.stop.aborted || err instanceof PollOutageError)) {
      // Stopping a run does not cancel its jobs: they are durable and polled again on the next run.
      // Nor does a service that stays unreachable: the job is still open there.
      return { kind: 'interrupted', framesSpent: chargedNow };
    }
    if (jobId && err instanceof AnswerLimitError) {
      // The job was paid at its 202; its poll answered too much or too slowly: kept uncertain.
      const outcome = { ...limitOutcome(err), framesSpent: chargedNow };
      await recordDurably(ctx, submissionId, outcome);
      return outcome;
    }
    const outcome = classifyError(err, ctx.signal);
    if (outcome.kind === 'uncertain') ctx.budget.adjust(item.cost);
    await recordDurably(ctx, submissionId, outcome);
    return outcome;
  }
}

/** How long polls may keep failing (service restarting, network down) before the run lets the job be. */
export const POLL_OUTAGE_MS = 120_000;

/**
 * How long a run waits for one clip's job before leaving it open for the next run: generous
 * (a service may queue and analyse slowly), and longer for longer clips.
 */
export function jobPatienceMs(durationMs: number | null): number {
  return Math.max(15 * 60_000, 30 * (durationMs ?? 0));
}

/** Polls failed for longer than POLL_OUTAGE_MS: the job is left open for the next run to poll. */
class PollOutageError extends Error {
  override readonly name = 'PollOutageError';
}

/** The service asked to wait past the run's patience for this job: the run pauses instead. */
class ServiceWaitError extends Error {
  override readonly name = 'ServiceWaitError';
  constructor(readonly wait: ServiceWait) {
    super(wait.reason);
  }
}

async function pollUntilFinished(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  jobId: string,
  firstHint: number | null | undefined,
): Promise<JobAnswer> {
  const bounds = ctx.limits.pollIntervalMs;
  let interval = clampPollInterval(firstHint, bounds);
  let outageSince: number | undefined;
  const patience = jobPatienceMs(item.media.durationMs);
  const overdueAt = ctx.now() + patience;
  // A clean stop ends the wait between polls (the job runs on, polled by the next run).
  const waits = AbortSignal.any([ctx.signal, ctx.stop]);
  /** One wait longer than the run's whole patience for the job is not waited: the run pauses. */
  const longWait = (hint: number | null | undefined) => {
    const asked = askedWait(hint, bounds);
    if (asked <= patience) return;
    throw new ServiceWaitError({
      reason: `the service asked to wait ${waitText(asked)} before polling job ${jobId} again (pollIntervalMs)`,
      waitMs: asked,
    });
  };
  longWait(firstHint);
  for (;;) {
    await ctx.sleep(interval, waits);
    let job: JobAnswer;
    try {
      job = await ctx.service.job(jobId, ctx.signal, {
        solutionClasses: ctx.solution,
        clipDurationMs: item.media.durationMs,
      });
    } catch (err) {
      // A poll is safe to repeat and the job lives on at the service (it resumes after a restart):
      // refused connections and 5xx are waited out, backing off within the catalog's bounds.
      if (ctx.signal.aborted || !isRetriable(err)) throw err;
      outageSince ??= ctx.now();
      if (ctx.now() - outageSince > POLL_OUTAGE_MS) {
        throw new PollOutageError(`polls of job ${jobId} failed for ${POLL_OUTAGE_MS} ms`, {
          cause: err,
        });
      }
      interval = clampPollInterval(interval * 2, bounds);
      continue;
    }
    outageSince = undefined;
    const progress = job.status === 'succeeded' ? 1 : Math.max(0, Math.min(1, job.progress ?? 0));
    try {
      ctx.store.submissions.setJobProgress(submissionId, job.status, progress);
    } catch (err) {
      // Progress is a hint for the UI: a full disk must not fail a paid job over it.
      if (!isDiskFull(err)) throw err;
    }
    ctx.onJobProgress?.(item.media, progress);
    if (job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled')
      return job;
    if (ctx.now() > overdueAt) {
      // Neither finished nor failed: said in the summary, and left open for the next run.
      throw new PollOutageError(`job ${jobId} is still not finished after a long wait`);
    }
    longWait(job.pollIntervalMs);
    interval = clampPollInterval(job.pollIntervalMs, bounds);
  }
}

/**
 * What the clip cost in all: the key's difference since `before` when its cost was being learnt
 * (which teaches the per-frame cost), else its analysed frames × the known per-frame cost, else
 * (a clip resumed while its cost is still unknown) what was paid when its job was created.
 */
async function finalSpend(
  ctx: TaskContext,
  job: JobAnswer,
  charged: number,
  before: KeyView | undefined,
): Promise<number> {
  const frames = job.result?.frames.length ?? 0;
  if (before) {
    const total = await spentSince(ctx.service, before, ctx.signal).catch(() => undefined);
    if (total !== undefined) {
      if (job.status === 'succeeded' && frames > 0) ctx.learnCost('videoFrame', total / frames);
      return total;
    }
  }
  const perFrame = ctx.solution.frameCost.videoFrame;
  return perFrame === null ? charged : Math.round(frames * perFrame);
}

/**
 * The final charge, the result and the state land together, or (after a crash) none of them does
 * and the still-open job is polled again by the next run. `framesSpent` of the outcome is what
 * the key paid at the end beyond what it had already paid when the job was created (a refund of
 * unanalysed frames is negative).
 */
async function settle(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  job: JobAnswer,
  paid: { charged: number; reserved: number; spent: number },
): Promise<TaskOutcome> {
  const { store, service, solution } = ctx;
  const frames = job.result?.frames ?? [];
  const spent = paid.spent;
  const delta = spent - paid.charged;
  // A failed job answers 200 with `error`: a failure with the service's own words. An `error`
  // beside a finished job's result is kept with it (the adapter says which is which).
  const note = job.result && job.error ? `${job.error.code}: ${job.error.message}` : undefined;
  const outcome: TaskOutcome =
    job.status === 'succeeded' && job.result
      ? {
          kind: 'done',
          framesSpent: delta,
          boxes: frames.reduce((n, f) => n + f.detections.length, 0),
          ...(note ? { note } : {}),
        }
      : job.status === 'cancelled'
        ? { kind: 'cancelled', framesSpent: delta }
        : {
            kind: 'failed',
            framesSpent: delta,
            code: job.error?.code ?? 'job_failed',
            message:
              job.error?.message ?? 'The service reported the job as failed without a reason.',
          };
  const write = () =>
    store.transaction(() => {
      if (delta !== 0) {
        store.ledger.record({
          serviceUrl: service.baseUrl,
          submissionId,
          frames: delta,
          at: ctx.now(),
        });
      }
      if (outcome.kind === 'done' && job.result) {
        const result = store.results.save({
          contentHash: item.media.contentHash,
          solution: solution.id,
          serviceUrl: service.baseUrl,
          analysedWidth: job.result.analysedWidth ?? item.media.width ?? 0,
          analysedHeight: job.result.analysedHeight ?? item.media.height ?? 0,
          model: null,
          detections: frames.flatMap((f) => toDetectionInputs(f.detections, f.index, f.timeMs)),
        });
        if (job.assumedOrigin)
          holdAssumed(store, submissionId, 'job', result, job.assumedOrigin, ctx.now());
        store.submissions.setState(submissionId, 'done', {
          framesSpent: spent,
          ...(job.error ? { errorCode: job.error.code, errorMessage: job.error.message } : {}),
        });
        return;
      }
      store.submissions.setState(
        submissionId,
        outcome.kind === 'cancelled' ? 'cancelled' : 'failed',
        {
          framesSpent: spent,
          ...(outcome.kind === 'failed'
            ? { errorCode: outcome.code, errorMessage: outcome.message }
            : {}),
        },
      );
    });
  try {
    await ctx.disk.retry(write, ctx.sleep, ctx.signal);
  } catch (err) {
    // Aborted with the disk still full: the job id is stored, so the next run polls it again.
    if (err instanceof DiskFullError) throw new PollOutageError(err.message, { cause: err });
    throw err;
  }
  ctx.budget.settle(paid.reserved, delta);
  return outcome;
}
