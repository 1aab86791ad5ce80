/**
 * The model's boxes of a library read in result id order on a thread of its own, for an import
 * (ModelBoxesAhead): each page packed and transferred to the import's thread, which then reads
 * none itself. Reads only; stops when told, at the end, at `maxRows`, or at a result longer than
 * a page (a long clip, which the import reads itself).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DETECTIONS_AFTER_SQL } from '../core/store/results-repo.js';
import type { RawDetection } from '../core/store/row-mappers.js';
import { openDatabase } from '../node-lib/sqlite.js';
import {
  packModelBoxes,
  packedTransfer,
  wholeResults,
  type PackedModelBoxes,
} from './packed-model-boxes.js';

export interface ModelBoxesReaderData {
  file: string;
  nativeBinding: string | undefined;
  page: number;
  maxRows: number;
}

export type ModelBoxesReaderMessage = { kind: 'page'; page: PackedModelBoxes } | { kind: 'done' };

const port = parentPort;
if (!port) throw new Error('boxes-ahead-worker must run in a worker thread');
const { file, nativeBinding, page: limit, maxRows } = workerData as ModelBoxesReaderData;
let stopped = false;
port.on('message', (m: unknown) => {
  if (m === 'stop') stopped = true;
});

const db = openDatabase(file, { nativeBinding });
try {
  db.pragma('query_only = 1');
  const read = db.prepare<[number, number], RawDetection>(DETECTIONS_AFTER_SQL).raw();
  let after = 0;
  let rows = 0;
  while (!stopped && rows < maxRows) {
    const page = read.all(after, limit);
    const whole = wholeResults(page, limit);
    if (whole <= 0) break;
    const packed = packModelBoxes(page, whole);
    port.postMessage(
      { kind: 'page', page: packed } satisfies ModelBoxesReaderMessage,
      packedTransfer(packed),
    );
    rows += whole;
    if (page.length < limit) break;
    after = (page[whole - 1] as RawDetection)[1];
    // Lets a `stop` in.
    await new Promise((r) => setImmediate(r));
  }
} finally {
  db.close();
}
port.postMessage({ kind: 'done' } satisfies ModelBoxesReaderMessage);
port.close();
