/** The one outcome of a worker that answers a single job: settled once, whatever comes first. */
import type { Worker } from 'node:worker_threads';

export interface WorkerOutcomeOptions<M, T> {
  /** Each message; `settle` ends the job with a result or an error. */
  onMessage: (message: M, settle: (outcome: { value: T } | { error: unknown }) => void) => void;
  signal?: AbortSignal | undefined;
  /**
   * What the signal's abort does to the thread; `stopped` ends the job with the signal's reason
   * (at once, or once the thread says it has stopped).
   */
  onAbort: (stopped: () => void) => void;
  /** Says what the thread was, for its exit before it answered ("the import's thread"). */
  what: string;
}

export function workerOutcome<M, T>(worker: Worker, o: WorkerOutcomeOptions<M, T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: { value: T } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      o.signal?.removeEventListener('abort', onAbort);
      if ('value' in outcome) resolve(outcome.value);
      else reject(outcome.error as Error);
    };
    const onAbort = () => o.onAbort(() => settle({ error: o.signal?.reason }));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: M) => o.onMessage(m, settle));
    worker.once('error', (error) => settle({ error }));
    worker.once('exit', (code) =>
      settle({ error: new Error(`${o.what} stopped (exit ${code}).`) }),
    );
  });
}
