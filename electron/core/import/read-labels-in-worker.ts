/**
 * readLabels on a thread of its own: the caller's thread only receives the files read, one batch
 * per turn of its loop (it asks for each next one).
 */
import { Worker } from 'node:worker_threads';
import { requireWorkerScript } from '../../node-lib/worker-script.js';
import type { ImportedFile, ImportFormat, ReadLabels } from './import-model.js';
import type { ReadLabelsMessage } from './read-labels-messages.js';

export function readLabelsInWorker(
  format: ImportFormat,
  source: string,
  signal?: AbortSignal,
): Promise<ReadLabels> {
  signal?.throwIfAborted();
  const worker = new Worker(requireWorkerScript(import.meta.url, 'read-labels-worker.js'), {
    workerData: { format, source },
  });
  const out: ReadLabels = { files: [], issues: [] };
  return new Promise<ReadLabels>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      void worker.terminate();
      settle(() => reject(signal?.reason as Error));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: ReadLabelsMessage) => {
      // A loop, not a spread: many files would overflow the call's arguments.
      if (m.kind === 'files') {
        for (const f of JSON.parse(m.json) as ImportedFile[]) out.files.push(f);
        // The next batch once this turn of the loop is over (other calls go first).
        setImmediate(() => {
          if (!settled) worker.postMessage('more');
        });
      } else if (m.kind === 'done') {
        for (const i of m.issues) out.issues.push(i);
        if (m.coco) out.coco = m.coco;
        settle(() => resolve(out));
      } else settle(() => reject(new Error(m.message)));
    });
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The label-reading thread stopped (exit ${code}).`))),
    );
  });
}
