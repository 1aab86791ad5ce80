import { ApiError } from '../http/api-error.js';

/** Counts image requests in flight per token; past the published limit, 429 with Retry-After. */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  acquire(key: string): () => void {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= this.max) {
      throw new ApiError(
        429,
        'too_many_concurrent_requests',
        `At most ${this.max} image requests may run at once per token.`,
        { 'Retry-After': '1' },
      );
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
