/** A view thread's loop: each request names a method of `target`; its answer or error goes back. */
import { parentPort } from 'node:worker_threads';
import type { ViewRequest } from './library-view-client.js';

export function answerRequests(target: object): void {
  parentPort?.on('message', (msg: ViewRequest) => {
    try {
      const method = (target as Record<string, unknown>)[msg.method] as (
        ...args: unknown[]
      ) => unknown;
      parentPort?.postMessage({ id: msg.id, result: method.apply(target, msg.args) });
    } catch (err) {
      parentPort?.postMessage({ id: msg.id, error: (err as Error).message });
    }
  });
}
