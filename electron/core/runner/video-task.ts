/**
 * One clip as a durable job: the job id is stored the moment the 202 arrives, polls honour
 * pollIntervalMs (clamped to the catalog's bounds), and after a restart the stored job is polled
 * again instead of uploading the clip twice.
 */
import { clampPollInterval } from '../service/poll-interval.js';
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
    if (jobId && ctx.signal.aborted) {
      // Stopping a run does not cancel its jobs: they are durable and polled again on the next run.
      ctx.budget.settle(item.cost, 0);
      return { kind: 'interrupted' };
    }
    const outcome = classifyError(err, ctx.signal);
    ctx.budget.settle(item.cost, outcome.kind === 'uncertain' ? item.cost : 0);
    recordOutcome(ctx, submissionId, outcome);
    return outcome;
  }
}

async function pollUntilFinished(
  ctx: TaskContext,
  item: PlannedItem,
  submissionId: number,
  jobId: string,
  firstInterval: number,
): Promise<JobAnswer> {
  let interval = firstInterval;
  for (;;) {
    await ctx.sleep(interval, ctx.signal);
    const job = await ctx.service.job(jobId, ctx.signal);
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
  store.ledger.record({ serviceUrl: service.baseUrl, submissionId, frames: spent, at: ctx.now() });
  ctx.budget.settle(item.cost, spent);
  if (job.status === 'succeeded' && job.result) {
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
    return { kind: 'done', framesSpent: spent, boxes: result.detections.length };
  }
  // A failed job answers 200 with `error`: a failure with the service's own words.
  const outcome: TaskOutcome =
    job.status === 'cancelled'
      ? { kind: 'cancelled', framesSpent: spent }
      : {
          kind: 'failed',
          framesSpent: spent,
          code: job.error?.code ?? 'job_failed',
          message: job.error?.message ?? 'The service reported the job as failed without a reason.',
        };
  store.submissions.setState(submissionId, outcome.kind === 'cancelled' ? 'cancelled' : 'failed', {
    framesSpent: spent,
    ...(outcome.kind === 'failed'
      ? { errorCode: outcome.code, errorMessage: outcome.message }
      : {}),
  });
  return outcome;
}
