/**
 * One clip as a durable job: the job id is stored the moment the 202 arrives, polls honour
 * pollIntervalMs (clamped to the catalog's bounds), and after a restart the stored job is polled
 * again instead of uploading the clip twice.
 */
import { clampPollInterval } from '../service/poll-interval.js';
import { isRetriable } from '../service/retry-policy.js';
import type { ResultInput } from '../store/store-types.js';
import { classifyError } from './classify-error.js';
import { recordOutcome } from './image-task.js';
import type { JobAnswer } from './service-port.js';
import type { PlannedItem, TaskContext, TaskOutcome } from './task-types.js';
import { toDetectionInputs } from './to-detections.js';

export async function runVideoTask(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
): Promise<TaskOutcome> {
  const { store, service, solution } = ctx;
  let jobId = store.submissions.byId(submissionId)?.jobId ?? null;
  try {
    let interval = ctx.limits.pollIntervalMs.min;
    if (!jobId) {
      store.submissions.setState(submissionId, 'sending');
      const submitted = await service.submitVideo({
        solution: solution.id,
        file: item.media.path,
        signal: ctx.signal,
      });
      jobId = submitted.jobId;
      store.submissions.setJob(submissionId, jobId, submitted.status);
      interval = clampPollInterval(submitted.pollIntervalMs, ctx.limits.pollIntervalMs);
    }
    const job = await pollUntilFinished(ctx, item, submissionId, jobId, interval);
    return settle(ctx, item, submissionId, job);
  } catch (err) {
    if (jobId && (ctx.signal.aborted || err instanceof PollOutageError)) {
      // Stopping a run does not cancel its jobs: they are durable and polled again on the next run.
      // Nor does a service that stays unreachable: the job is still open there.
      ctx.budget.settle(item.cost, 0);
      return { kind: 'interrupted' };
    }
    const outcome = classifyError(err, ctx.signal);
    ctx.budget.settle(item.cost, outcome.kind === 'uncertain' ? item.cost : 0);
    recordOutcome(ctx, submissionId, outcome);
    return outcome;
  }
}

/** How long polls may keep failing (service restarting, network down) before the run lets the job be. */
export const POLL_OUTAGE_MS = 120_000;

/** Polls failed for longer than POLL_OUTAGE_MS: the job is left open for the next run to poll. */
class PollOutageError extends Error {
  override readonly name = 'PollOutageError';
}

async function pollUntilFinished(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  jobId: string,
  firstInterval: number,
): Promise<JobAnswer> {
  let interval = firstInterval;
  let outageSince: number | undefined;
  for (;;) {
    await ctx.sleep(interval, ctx.signal);
    let job: JobAnswer;
    try {
      job = await ctx.service.job(jobId, ctx.signal);
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
      interval = clampPollInterval(interval * 2, ctx.limits.pollIntervalMs);
      continue;
    }
    outageSince = undefined;
    const progress = job.status === 'succeeded' ? 1 : Math.max(0, Math.min(1, job.progress ?? 0));
    ctx.store.submissions.setJobProgress(submissionId, job.status, progress);
    ctx.onJobProgress?.(item.media, progress);
    if (job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled')
      return job;
    interval = clampPollInterval(job.pollIntervalMs, ctx.limits.pollIntervalMs);
  }
}

function settle(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  job: JobAnswer,
): TaskOutcome {
  const { store, service, solution } = ctx;
  const frames = job.result?.frames ?? [];
  const spent = frames.length * solution.frameCost.videoFrame;
  ctx.budget.settle(item.cost, spent);
  // A failed job answers 200 with `error`: a failure with the service's own words.
  const outcome: TaskOutcome =
    job.status === 'succeeded' && job.result
      ? {
          kind: 'done',
          framesSpent: spent,
          boxes: frames.reduce((n, f) => n + f.detections.length, 0),
        }
      : job.status === 'cancelled'
        ? { kind: 'cancelled', framesSpent: spent }
        : {
            kind: 'failed',
            framesSpent: spent,
            code: job.error?.code ?? 'job_failed',
            message:
              job.error?.message ?? 'The service reported the job as failed without a reason.',
          };
  // The charge, the result and the final state land together, or (after a crash) none of them
  // does and the still-open job is polled again by the next run.
  store.transaction(() => {
    store.ledger.record({
      serviceUrl: service.baseUrl,
      submissionId,
      frames: spent,
      at: ctx.now(),
    });
    if (outcome.kind === 'done' && job.result) {
      const result: ResultInput = {
        contentHash: item.media.contentHash,
        solution: solution.id,
        serviceUrl: service.baseUrl,
        analysedWidth: job.result.analysedWidth,
        analysedHeight: job.result.analysedHeight,
        model: null,
        detections: frames.flatMap((f) => toDetectionInputs(f.detections, f.index, f.timeMs)),
      };
      store.results.save(result);
      store.submissions.setState(submissionId, 'done', { framesSpent: spent });
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
  return outcome;
}
