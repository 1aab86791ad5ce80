/** `node:worker_threads` for vi.mock, whose Worker counts the threads it starts (real threads). */
import type * as WorkerThreads from 'node:worker_threads';

export function countedWorkers(
  real: typeof WorkerThreads,
  started: { threads: number },
): typeof WorkerThreads {
  class CountedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.threads++;
    }
  }
  return { ...real, Worker: CountedWorker };
}
