/**
 * `importLabels` on a thread of its own, with its own connection to the library: the import's
 * planning, writes, commits and collections then never hold the thread that serves the UI (in
 * the app, slices of 30 ms and the collections between them held it 50-330 ms at 100k). Its
 * transactions take turns with this process's other writes (write-turns.ts), so a person's edit
 * during an import waits for at most one short slice.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteNativeBinding } from '../node-lib/sqlite.js';
import { workerOutcome } from '../node-lib/worker-outcome.js';
import { workerScript } from '../node-lib/worker-script.js';
import { turnsForWorker } from '../node-lib/write-turns.js';
import { importLabels, type ImportOptions, type ImportSummary } from './import-labels.js';
import type { ImportWorkerData, ImportWorkerMessage } from './import-labels-messages.js';

/** An error of the import's thread, with SQLite's code when it was SQLite's. */
export class ImportThreadError extends Error {
  override readonly name = 'ImportThreadError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * Imports on a thread of its own; in this thread where there is no file for a second connection
 * (an in-memory library) or no built worker script.
 */
export async function importLabelsInWorker(
  store: Parameters<typeof importLabels>[0],
  options: ImportOptions,
): Promise<ImportSummary> {
  const script = workerScript(import.meta.url, 'import-labels-worker.js');
  if (store.file === '' || store.file === ':memory:' || !existsSync(script))
    return importLabels(store, options);
  options.signal?.throwIfAborted();
  const turns = turnsForWorker();
  const data: ImportWorkerData = {
    file: store.file,
    nativeBinding: sqliteNativeBinding(),
    ...turns.data,
    format: options.format,
    source: options.source,
    solution: options.solution,
  };
  const worker = new Worker(script, { workerData: data });
  // Stopped inside a transaction (out of memory), it could not give its turn back itself.
  worker.once('exit', turns.release);
  const { signal } = options;
  return workerOutcome<ImportWorkerMessage, ImportSummary>(worker, {
    signal,
    what: "The import's thread",
    // Told, not terminated: the thread ends its slice and closes its connection itself, and the
    // import ends once it has (what it committed is then all there is).
    onAbort: () => worker.postMessage('abort'),
    onMessage: (m, settle) => {
      if (m.kind === 'progress') options.onProgress?.({ done: m.done, total: m.total });
      else if (m.kind === 'done') settle({ value: m.summary });
      else
        settle({
          error: signal?.aborted ? signal.reason : new ImportThreadError(m.message, m.code),
        });
    },
  });
}
