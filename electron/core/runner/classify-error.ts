/** Maps a failed call to what the runner does next. */
import {
  AnswerLimitError,
  ServiceClientError,
  ServiceError,
  UncertainOutcomeError,
} from '../service/service-errors.js';
import { DEFAULT_RETRY_POLICY, isRetriableStatus } from '../service/retry-policy.js';
import type { TaskOutcome } from './task-types.js';

type FailureOutcome = Exclude<TaskOutcome, { kind: 'done' } | { kind: 'interrupted' }>;

export function classifyError(err: unknown, signal: AbortSignal): FailureOutcome {
  if (err instanceof UncertainOutcomeError && err.cause instanceof AnswerLimitError) {
    return limitOutcome(err.cause);
  }
  if (err instanceof UncertainOutcomeError) {
    return {
      kind: 'uncertain',
      code: 'answer_lost',
      message:
        'The upload finished but the answer was lost; the file may have been charged. Retry it explicitly.',
    };
  }
  if (signal.aborted) return { kind: 'cancelled', framesSpent: 0 };
  if (err instanceof ServiceError) {
    const retryAfterMs = err.retryAfterSec !== undefined ? err.retryAfterSec * 1000 : undefined;
    if (err.status === 402) return { kind: 'no-credits', reason: 'key' };
    if (err.status === 429) {
      if (err.code === 'hourly_frames_exhausted') {
        return {
          kind: 'no-credits',
          reason: 'hour',
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
      }
      return busy(retryAfterMs ?? 1000, err.message);
    }
    // A 503 (or 408, 5xx) with a Retry-After longer than the client waits within a request: the
    // service asked for time, so the file waits for it (the run pauses or stops saying so).
    if (
      retryAfterMs !== undefined &&
      retryAfterMs > DEFAULT_RETRY_POLICY.maxRetryAfterMs &&
      isRetriableStatus(err.status)
    ) {
      return busy(retryAfterMs, err.message);
    }
    return { kind: 'failed', framesSpent: 0, code: err.code, message: err.message };
  }
  if (err instanceof ServiceClientError) {
    // Network errors after retries, unreadable or shrinking files, answers we cannot read.
    return { kind: 'failed', framesSpent: 0, code: err.code, message: err.message };
  }
  const sys = (err as NodeJS.ErrnoException | undefined)?.code;
  if (sys === 'ENOENT') {
    return {
      kind: 'failed',
      framesSpent: 0,
      code: 'file_vanished',
      message: 'The file disappeared before it could be sent.',
    };
  }
  if (sys === 'EACCES' || sys === 'EPERM') {
    return {
      kind: 'failed',
      framesSpent: 0,
      code: 'file_unreadable',
      message: 'The file could not be read (permission denied).',
    };
  }
  return {
    kind: 'failed',
    framesSpent: 0,
    code: 'internal_error',
    message: err instanceof Error ? err.message : String(err),
  };
}

/** A busy service; its words go with a wait the run may pause for (one longer than a request holds). */
function busy(retryAfterMs: number, said: string): Extract<FailureOutcome, { kind: 'busy' }> {
  return retryAfterMs > DEFAULT_RETRY_POLICY.maxRetryAfterMs
    ? { kind: 'busy', retryAfterMs, said }
    : { kind: 'busy', retryAfterMs };
}

/**
 * A call abandoned at its size cap or deadline after its upload was complete: it may have been
 * charged, so the file is kept uncertain (sent again only when a person asks) with the reason.
 */
export function limitOutcome(
  err: AnswerLimitError,
): Extract<FailureOutcome, { kind: 'uncertain' }> {
  const why = err.message.charAt(0).toUpperCase() + err.message.slice(1);
  return {
    kind: 'uncertain',
    code: err.code,
    message: `${why}; the call was abandoned and the file may have been charged. It is kept and sent again only if you ask (--retry-uncertain, or Retry).`,
  };
}
