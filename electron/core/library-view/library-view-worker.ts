/**
 * The library view's thread: its queries (a count over 100k files, per-class totals over a
 * million boxes) run here, so the process answering the UI never waits on them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LibraryView } from './library-view.js';
import type { ViewRequest } from './library-view-client.js';

const { file, nativeBinding } = workerData as { file: string; nativeBinding?: string };
const view = new LibraryView(file, nativeBinding);

parentPort?.on('message', (msg: ViewRequest) => {
  try {
    const method = view[msg.method] as (...args: unknown[]) => unknown;
    parentPort?.postMessage({ id: msg.id, result: method.apply(view, msg.args) });
  } catch (err) {
    parentPort?.postMessage({ id: msg.id, error: (err as Error).message });
  }
});
