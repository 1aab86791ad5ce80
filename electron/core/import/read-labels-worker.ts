/**
 * Reads a label source on a thread of its own (read-labels-in-worker.ts), so that parsing a large or
 * hostile file never holds the thread that serves the UI. Files go back in small batches, the next
 * one only when the receiver asks for it: Node delivers every message already queued on a port in
 * one turn of the receiver's loop, so 40 batches sent at once (20,000 COCO files) were received as
 * one stall of seconds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportFormat } from './import-model.js';
import { transferables } from './packed-boxes.js';
import { readLabelBatches } from './read-labels.js';
import { FILES_PER_MESSAGE, type ReadLabelsMessage } from './read-labels-messages.js';

const { format, source, inFlight } = workerData as {
  format: ImportFormat;
  source: string;
  /** Batches sent not yet asked for again (see readHeldLabelsInWorker); one if not said. */
  inFlight?: number;
};
const port = parentPort;
if (port) {
  const post = (m: ReadLabelsMessage) => port.postMessage(m);
  try {
    const read = await readLabelBatches(format, source);
    let at = 0;
    const prepare = () => {
      if (at >= read.count) return null;
      const batch = read.batch(at, at + FILES_PER_MESSAGE);
      at += FILES_PER_MESSAGE;
      return batch;
    };
    let ready = prepare();
    /** Batches that may be sent before the receiver asks for more. */
    let credit = inFlight ?? 1;
    const send = () => {
      while (credit > 0 && ready) {
        credit--;
        const { json, boxes } = ready;
        port.postMessage(
          { kind: 'files', json, boxes } satisfies ReadLabelsMessage,
          transferables(boxes),
        );
        // The next batch is made now, while the receiver takes this one in and asks for more:
        // made on asking, each of a 100k COCO's 400 batches waited for it, 0.5 s in all.
        ready = prepare();
      }
      if (ready || credit === 0) return;
      port.off('message', more);
      post({ kind: 'done', issues: read.issues, ...(read.coco ? { coco: read.coco } : {}) });
    };
    // Each `more` from the receiver asks for the next batch.
    const more = () => {
      credit++;
      send();
    };
    port.on('message', more);
    send();
  } catch (err) {
    post({ kind: 'failed', message: (err as Error).message });
  }
}
