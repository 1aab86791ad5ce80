import { ApiError } from '../http/api-error.js';

export interface GateOptions {
  /** What else already holds slots of a key (e.g. a token's queued jobs); counted with the gate's own. */
  heldElsewhere?: (key: string) => number;
  /** The 429 answered past the limit. */
  refusal?: (max: number) => ApiError;
}

const tooManyImageRequests = (max: number) =>
  new ApiError(
    429,
    'too_many_concurrent_requests',
    `At most ${max} image requests may run at once per token.`,
    { 'Retry-After': '1' },
  );

/** The 429 of the clip-upload gate: uploads in progress plus the token's queued jobs are at the limit. */
export const tooManyUploads = (max: number, retryAfterSec: number) =>
  new ApiError(
    429,
    'too_many_uploads',
    `At most ${max} clips per token may be uploading or waiting in the queue at once; send the next once one has started.`,
    { 'Retry-After': String(retryAfterSec) },
  );

/**
 * Counts work in flight per token; past the published limit, 429 with Retry-After. One gate counts
 * image requests; another counts clip uploads together with the token's queued jobs, so one token
 * cannot hold any number of half-sent clips on disk at once.
 */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly options: GateOptions = {},
  ) {}

  acquire(key: string): () => void {
    const n = this.inFlight.get(key) ?? 0;
    if (n + (this.options.heldElsewhere?.(key) ?? 0) >= this.max) {
      throw (this.options.refusal ?? tooManyImageRequests)(this.max);
    }
    this.inFlight.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    };
  }
}
