/**
 * When and how long to wait before resending a request. Exponential backoff with full jitter
 * (a uniform delay in [0, min(maxDelayMs, baseDelayMs · 2^(n−1))]) spreads clients that failed
 * together; a `Retry-After` from the service replaces the backoff, clamped to
 * below by MIN_WAIT_MS. A Retry-After longer than `maxRetryAfterMs` (what one request is held
 * for) is not waited out here, nor shortened (resending sooner than asked would only be refused
 * again): the error goes back to the caller, and a run pauses with the service's reason and wait.
 */
import { MIN_WAIT_MS, timerDelay } from './poll-interval.js';
import { NetworkError, ServiceError } from './service-errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included; 1 disables retries. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Cap of the backoff before jitter. */
  maxDelayMs: number;
  /** The longest `Retry-After` waited out within a request; a longer one is the caller's. */
  maxRetryAfterMs: number;
  /** Uniform [0, 1); injectable so tests are deterministic. */
  random: () => number;
  /** Called before each wait; for logs and tests. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  request: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  error: Error;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/**
 * Statuses worth resending: the service was busy or failing, not refusing this request. 4xx other
 * than 408/429 (400, 401, 402, 403, 404, 409, 413, 415, 422…) would fail again identically.
 */
export function isRetriableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** Only errors that are definitely safe to resend; UncertainOutcomeError and shape errors are not. */
export function isRetriable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ServiceError && isRetriableStatus(error.status);
}

/** `Retry-After` as seconds (integer or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Milliseconds to wait after failed attempt `attempt` (from 1), or null to give up and rethrow. */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy): number | null {
  if (attempt >= policy.maxAttempts || !isRetriable(error)) return null;
  if (error instanceof ServiceError && error.retryAfterSec !== undefined) {
    const asked = error.retryAfterSec * 1000;
    if (asked > policy.maxRetryAfterMs) return null;
    // `Retry-After: 0` is not an invitation to resend at once: the floor holds.
    return Math.max(asked, MIN_WAIT_MS);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

/** A wait that the caller's AbortSignal ends early (with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
