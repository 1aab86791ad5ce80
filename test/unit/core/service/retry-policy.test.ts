import { describe, expect, it } from 'vitest';
import {
  isRetriableStatus,
  parseRetryAfter,
  retryDelayMs,
  retryPolicy,
} from '../../../../electron/core/service/retry-policy.js';
import {
  NetworkError,
  ServiceError,
  ServiceShapeError,
  UncertainOutcomeError,
} from '../../../../electron/core/service/service-errors.js';

const status = (s: number, retryAfterSec?: number) => new ServiceError(s, 'x', 'm', retryAfterSec);

describe('retry policy', () => {
  it('retries 408, 429 and 5xx but none of the refusals', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetriableStatus(s)).toBe(true);
    for (const s of [400, 401, 402, 403, 404, 409, 413, 415, 422, 501]) {
      expect(isRetriableStatus(s)).toBe(false);
    }
  });

  it('backs off exponentially with full jitter, capped', () => {
    const policy = retryPolicy({
      baseDelayMs: 100,
      maxDelayMs: 350,
      maxAttempts: 10,
      random: () => 0.999,
    });
    const net = new NetworkError('network', 'reset');
    expect([1, 2, 3, 4].map((n) => retryDelayMs(net, n, policy))).toEqual([99, 199, 349, 349]);
    const low = retryPolicy({ random: () => 0 });
    expect(retryDelayMs(net, 1, low)).toBe(0);
  });

  it('honours Retry-After up to maxRetryAfterMs and hands a longer one back (never shortened)', () => {
    const policy = retryPolicy({ maxRetryAfterMs: 60_000, random: () => 0 });
    expect(retryDelayMs(status(429, 2), 1, policy)).toBe(2000);
    expect(retryDelayMs(status(429, 60), 1, policy)).toBe(60_000);
    expect(retryDelayMs(status(429, 61), 1, policy)).toBeNull();
    expect(retryDelayMs(status(503, 3600), 1, policy)).toBeNull();
  });

  it('gives up after maxAttempts and never retries uncertain or malformed outcomes', () => {
    const policy = retryPolicy({ maxAttempts: 3 });
    expect(retryDelayMs(status(503), 3, policy)).toBeNull();
    expect(retryDelayMs(new UncertainOutcomeError('network', 'POST /x', 10), 1, policy)).toBeNull();
    expect(retryDelayMs(new ServiceShapeError('catalog', ['catalog: x']), 1, policy)).toBeNull();
    expect(retryDelayMs(status(402), 1, policy)).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
