/**
 * Video jobs: the 202 of a submission (jobId required, pollUrl derived when absent), polls (any
 * status word; `result` means finished, `error` failed, an unknown word without either is still
 * running) and the DELETE acknowledgement (any answer counts as cancelled).
 */
import type {
  AnswerContext,
  CancelAck,
  Job,
  JobError,
  JobStatus,
  VideoSubmission,
} from './adapter-types.js';
import { Notes, type Problems } from './notes.js';
import { readCredits } from './read-credits.js';
import { readVideoResult } from './read-video-result.js';
import { isObject, looseNumberOf, numberOf, stringOf, textOf, type Json } from './read-values.js';

const WORDS: Record<string, JobStatus | 'finished'> = {
  queued: 'queued',
  pending: 'queued',
  waiting: 'queued',
  submitted: 'queued',
  accepted: 'queued',
  created: 'queued',
  running: 'running',
  processing: 'running',
  inprogress: 'running',
  started: 'running',
  active: 'running',
  succeeded: 'finished',
  success: 'finished',
  done: 'finished',
  completed: 'finished',
  complete: 'finished',
  finished: 'finished',
  failed: 'failed',
  failure: 'failed',
  error: 'failed',
  errored: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  aborted: 'cancelled',
};

const wordOf = (status: string | null) =>
  status === null ? undefined : WORDS[status.toLowerCase().replace(/[_\-\s]/g, '')];

/** `pollIntervalMs` as a hint: any number (clamped later), absent otherwise. */
function pollHint(o: Json): { pollIntervalMs?: number } {
  const v = o.pollIntervalMs ?? o.poll_interval_ms ?? o.retryAfterMs;
  return typeof v === 'number' && !Number.isNaN(v) ? { pollIntervalMs: v } : {};
}

export function readVideoSubmission(raw: unknown, problems: Problems): VideoSubmission | null {
  const o: Json = isObject(raw) ? raw : {};
  const notes = new Notes();
  const jobId = textOf(o.jobId) ?? textOf(o.job_id) ?? textOf(o.id);
  if (jobId === null || jobId === '') {
    problems.add('videoSubmission.jobId', 'required (the interface names it)');
    return null;
  }
  if (o.jobId === undefined)
    notes.understoodAs('videoSubmission.jobId', o.job_id !== undefined ? '`job_id`' : '`id`');
  const pollUrl = stringOf(o.pollUrl) ?? stringOf(o.poll_url);
  if (pollUrl === null) notes.notPublished('videoSubmission.pollUrl', `/jobs/${jobId}`);
  const serviceStatus = textOf(o.status);
  const word = wordOf(serviceStatus);
  return {
    jobId,
    pollUrl: pollUrl ?? `/jobs/${encodeURIComponent(jobId)}`,
    status:
      word === 'queued' || word === undefined ? 'queued' : word === 'finished' ? 'running' : word,
    serviceStatus,
    queuePosition: looseNumberOf(o.queuePosition),
    ...pollHint(o),
    credits: readCredits(o.credits, 'videoSubmission.credits', notes),
    understanding: notes.list,
  };
}

export function readJob(raw: unknown, ctx: AnswerContext, problems: Problems): Job | null {
  if (!isObject(raw)) {
    problems.add('job', 'expected a JSON object');
    return null;
  }
  const notes = new Notes();
  const serviceStatus = textOf(raw.status ?? raw.state);
  const word = wordOf(serviceStatus);
  const base = {
    jobId: textOf(raw.jobId ?? raw.job_id ?? raw.id),
    serviceStatus,
    progress: progressOf(raw.progress, notes),
    queuePosition: looseNumberOf(raw.queuePosition),
    ...pollHint(raw),
    understanding: notes.list,
  };
  const error = errorOf(raw.error);
  if (isObject(raw.result)) {
    const result = readVideoResult(raw.result, ctx, notes, problems);
    if (!result) return null;
    // A result is paid for, whatever the status word says: it is kept, and an `error` beside it
    // (or a status word of failure) is the service's remark on it, shown with the result. Thrown
    // away, the next run would upload the clip again and pay twice.
    const remark =
      error ??
      (word === 'failed'
        ? { code: 'job_failed', message: `The service reported the job as "${serviceStatus}".` }
        : null);
    return { ...base, status: 'succeeded', result, error: remark };
  }
  if (error) return { ...base, status: 'failed', result: null, error };
  if (word === 'finished') {
    problems.add('job.result', `required for a finished job (status "${serviceStatus}")`);
    return null;
  }
  if (word === undefined && serviceStatus !== null)
    notes.understoodAs('job.status', `"${serviceStatus}": still running`);
  const status: JobStatus = word ?? 'running';
  return {
    ...base,
    status,
    result: null,
    error:
      status === 'failed'
        ? {
            code: 'job_failed',
            message: 'The service reported the job as failed without a reason.',
          }
        : null,
  };
}

function progressOf(raw: unknown, notes: Notes): number | null {
  const v = numberOf(raw);
  if (v === null) return null;
  if (v > 1) {
    notes.understoodAs('job.progress', 'a percentage (0–100)');
    return Math.min(1, v / 100);
  }
  return Math.max(0, v);
}

function errorOf(raw: unknown): JobError | null {
  if (typeof raw === 'string' && raw !== '') return { code: 'job_failed', message: raw };
  if (!isObject(raw)) return null;
  const message = stringOf(raw.message) ?? stringOf(raw.detail) ?? stringOf(raw.description);
  const code = stringOf(raw.code) ?? stringOf(raw.type) ?? 'job_failed';
  return { code, message: message ?? `The job failed (${code}).` };
}

/** After DELETE, any answer (even an empty or non-JSON one) means the job is cancelled. */
export function readCancelAck(raw: unknown): CancelAck {
  const o: Json = isObject(raw) ? raw : {};
  return {
    jobId: textOf(o.jobId ?? o.job_id ?? o.id),
    status: 'cancelled',
    serviceStatus: textOf(o.status ?? o.state),
  };
}
