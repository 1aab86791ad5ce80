/**
 * The submission state machine. The database CHECK keeps the values legal; this table keeps the
 * moves legal, so a bug such as re-sending a finished submission (and paying twice) fails loudly.
 */
import type { SubmissionState } from './store-types.js';

export const TERMINAL_STATES: readonly SubmissionState[] = ['done', 'failed', 'cancelled'];

const ALLOWED: Record<SubmissionState, readonly SubmissionState[]> = {
  queued: ['sending', 'waiting-for-credits', 'cancelled', 'failed'],
  'waiting-for-credits': ['queued', 'sending', 'cancelled', 'failed'],
  // Back to queued: a retry after a 429 or a refused connection (nothing was charged).
  sending: ['done', 'failed', 'uncertain', 'cancelled', 'waiting-for-credits', 'queued'],
  // Uncertain: the request may have reached the service; the runner reconciles before any resend.
  uncertain: ['sending', 'queued', 'done', 'failed', 'cancelled'],
  done: [],
  failed: [],
  cancelled: [],
};

/** Staying in a non-terminal state is allowed: it records attempts or an error on the way. */
export function canMove(from: SubmissionState, to: SubmissionState): boolean {
  if (from === to) return !TERMINAL_STATES.includes(from);
  return ALLOWED[from].includes(to);
}
