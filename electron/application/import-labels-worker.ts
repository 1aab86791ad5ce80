/**
 * The import's thread (import-labels-in-worker.ts): its own connection to the library, as the
 * bulk writer that gives every other write its turn (write-turns.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../node-lib/background-thread.js';
import { useWriteTurns } from '../node-lib/write-turns.js';
import { openLibraryStore } from '../core/review/open-library-store.js';
import { importLabels, type ImportSummary } from './import-labels.js';
import type { ImportWorkerData, ImportWorkerMessage } from './import-labels-messages.js';

const port = parentPort;
if (!port) throw new Error('import-labels-worker must run in a worker thread');
const data = workerData as ImportWorkerData;
const send = (m: ImportWorkerMessage) => port.postMessage(m);
const abort = new AbortController();
port.on('message', (m: unknown) => {
  if (m === 'abort') abort.abort(new Error('The import was cancelled.'));
});

async function run(): Promise<void> {
  // Below the thread serving the UI; the label-reading and checkpoint threads it starts inherit it.
  lowerThreadPriority();
  useWriteTurns(data.writeTurns, data.heldTurns);
  const store = openLibraryStore(data.file, { nativeBinding: data.nativeBinding, bulk: true });
  let told = false;
  const done = (summary: ImportSummary) => {
    if (!told) send({ kind: 'done', summary });
    told = true;
  };
  try {
    // Done once committed: the log's last copy into the database goes on after it.
    done(
      await importLabels(store, {
        format: data.format,
        source: data.source,
        solution: data.solution,
        signal: abort.signal,
        onProgress: ({ done, total }) => send({ kind: 'progress', done, total }),
        onCommitted: done,
      }),
    );
  } finally {
    store.close();
  }
}

run().then(
  () => port.close(),
  (err: unknown) => {
    const e = err as { message?: string; code?: unknown };
    const code = typeof e.code === 'string' ? e.code : undefined;
    send({ kind: 'failed', message: e.message ?? String(err), code });
    port.close();
  },
);
