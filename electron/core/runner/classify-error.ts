/** Maps a failed call to what the runner does next, using only the error's status and code. */
import type { TaskOutcome } from './task-types.js';

interface ErrorLike {
  name?: string;
  status?: number;
  code?: string;
  message?: string;
  retryAfterSec?: number;
}

export function classifyError(
  err: unknown,
  signal: AbortSignal,
): Exclude<TaskOutcome, { kind: 'done' }> {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorLike;
  if (signal.aborted) return { kind: 'cancelled', framesSpent: 0 };
  if (e.name === 'UncertainOutcomeError') {
    return {
      kind: 'uncertain',
      code: 'answer_lost',
      message:
        'The upload finished but the answer was lost; the file may have been charged. Retry it explicitly.',
    };
  }
  const retryAfterMs = e.retryAfterSec !== undefined ? e.retryAfterSec * 1000 : undefined;
  if (e.status === 402) return { kind: 'no-credits', reason: 'key' };
  if (e.status === 429) {
    if (e.code === 'hourly_frames_exhausted') {
      return {
        kind: 'no-credits',
        reason: 'hour',
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    return { kind: 'busy', retryAfterMs: retryAfterMs ?? 1000 };
  }
  if (typeof e.status === 'number') {
    return {
      kind: 'failed',
      framesSpent: 0,
      code: e.code ?? `http_${e.status}`,
      message: e.message ?? `HTTP ${e.status}`,
    };
  }
  const sys = (err as NodeJS.ErrnoException | undefined)?.code;
  if (sys === 'ENOENT')
    return {
      kind: 'failed',
      framesSpent: 0,
      code: 'file_vanished',
      message: 'The file disappeared before it could be sent.',
    };
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
    code: e.code && /^[a-z_]+$/.test(e.code) ? e.code : 'network_error',
    message: e.message ?? String(err),
  };
}
