/**
 * readLabels on a thread of its own: the caller's thread only receives the files read, one batch
 * per turn of its loop (it asks for each next one), their boxes packed (HeldFile) until the
 * caller unpacks them.
 */
import { Worker } from 'node:worker_threads';
import { workerOutcome } from '../../node-lib/worker-outcome.js';
import { requireWorkerScript } from '../../node-lib/worker-script.js';
import { withBoxes, type HeldFile } from './held-file.js';
import type { ImportFormat, ReadLabels } from './import-model.js';
import type { ReadLabelsMessage } from './read-labels-messages.js';

/** The files read, each file's boxes parsed. */
export async function readLabelsInWorker(
  format: ImportFormat,
  source: string,
  signal?: AbortSignal,
): Promise<ReadLabels> {
  const read = await readHeldLabelsInWorker(format, source, signal);
  return { ...read, files: read.files.map(withBoxes) };
}

export type HeldLabels = Omit<ReadLabels, 'files'> & { files: HeldFile[] };

/**
 * The files read, each file's boxes kept packed (see HeldFile). `inFlight`: batches the reading
 * thread may send before this one asks for more. One for a thread serving a UI (each batch then
 * lands in a turn of its own); a thread of its own (an import's) takes a few, so the reading thread
 * never waits for it to ask (a 100k COCO's 400 round trips left it idle 0.3 s).
 */
export function readHeldLabelsInWorker(
  format: ImportFormat,
  source: string,
  signal?: AbortSignal,
  {
    inFlight = 1,
    onFiles,
  }: {
    inFlight?: number;
    /** Each batch of files as it is taken in (they are in the result too, in the same order). */
    onFiles?: (files: readonly HeldFile[]) => void;
  } = {},
): Promise<HeldLabels> {
  signal?.throwIfAborted();
  const worker = new Worker(requireWorkerScript(import.meta.url, 'read-labels-worker.js'), {
    workerData: { format, source, inFlight },
  });
  const out: HeldLabels = { files: [], issues: [] };
  return workerOutcome<ReadLabelsMessage, HeldLabels>(worker, {
    signal,
    what: 'The label-reading thread',
    onAbort: (stopped) => {
      void worker.terminate();
      stopped();
    },
    onMessage: (m, settle) => {
      // A loop, not a spread: many files would overflow the call's arguments.
      if (m.kind === 'files') {
        // The next batch asked for first, so the worker prepares it while this one is taken in
        // (asked after, each batch waited for both threads in turn: 200 batches of a 20k-file
        // COCO took 1-1.7 s on a loaded machine). Still one batch asked for at a time.
        worker.postMessage('more');
        const files = JSON.parse(m.json) as HeldFile[];
        let firstBox = 0;
        for (const f of files) {
          // Set on the parsed object: no copy of each file.
          f.packed = m.boxes;
          f.firstBox = firstBox;
          firstBox += f.boxCount;
          out.files.push(f);
        }
        onFiles?.(files);
      } else if (m.kind === 'done') {
        for (const i of m.issues) out.issues.push(i);
        if (m.coco) out.coco = m.coco;
        settle({ value: out });
      } else settle({ error: new Error(m.message) });
    },
  });
}
