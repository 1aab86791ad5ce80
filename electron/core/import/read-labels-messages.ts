/** What the label-reading thread sends back (read-labels-worker.ts). */
import type { CocoKeptDataset } from './coco-kept.js';
import type { ImportIssue } from './import-model.js';
import type { PackedBoxes } from './packed-boxes.js';

/**
 * Files per message. With their boxes as JSON text, 500 COCO files took 10-20 ms to receive;
 * packed (transferred, not read), 100 files take about 0.4 ms, and a 20k import's 200 round trips
 * cost 0.3-0.4 s of the two threads waking each other on a loaded machine. 1,000 files a message
 * held the loop 40-46 ms (20k import, idle machine); 250 hold it under 30 ms, as fast overall.
 */
export const FILES_PER_MESSAGE = 250;

export type ReadLabelsMessage =
  /**
   * The files as JSON text (a string crosses threads as one block, and JSON.parse builds plain
   * objects faster than the structured clone's reader and the sender's writer do), their boxes
   * packed (transferred).
   */
  | {
      kind: 'files';
      /** The files without their boxes, each with `boxCount` (see HeldFile). */
      json: string;
      /** The files' boxes, one file's after another's (see packed-boxes.ts). */
      boxes: PackedBoxes;
    }
  | { kind: 'done'; issues: ImportIssue[]; coco?: CocoKeptDataset }
  | { kind: 'failed'; message: string };
