/**
 * Reads a label source on a thread of its own (read-labels-in-worker.ts), so that parsing a large or
 * hostile file never holds the thread that serves the UI. Files go back in small batches: each message
 * is cheap to receive, and the receiving thread serves other calls between them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportFormat } from './import-model.js';
import { readLabels } from './read-labels.js';
import { FILES_PER_MESSAGE, type ReadLabelsMessage } from './read-labels-messages.js';

const { format, source } = workerData as { format: ImportFormat; source: string };
const port = parentPort;
if (port) {
  const send = (m: ReadLabelsMessage) => port.postMessage(m);
  try {
    const read = await readLabels(format, source);
    for (let i = 0; i < read.files.length; i += FILES_PER_MESSAGE) {
      send({ kind: 'files', files: read.files.slice(i, i + FILES_PER_MESSAGE) });
    }
    send({ kind: 'done', issues: read.issues, ...(read.coco ? { coco: read.coco } : {}) });
  } catch (err) {
    send({ kind: 'failed', message: (err as Error).message });
  }
}
