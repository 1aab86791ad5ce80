/** What the label-reading thread sends back (read-labels-worker.ts). */
import type { CocoKeptDataset } from './coco-kept.js';
import type { ImportIssue } from './import-model.js';

/**
 * Files per message: a message of 100 COCO files (~1,000 boxes, with their kept COCO fields) is
 * received in a millisecond or two; 500 took 10-20 ms, several times that on a loaded machine.
 */
export const FILES_PER_MESSAGE = 100;

export type ReadLabelsMessage =
  /**
   * The files as JSON text: a string crosses threads as one block, and JSON.parse builds plain
   * objects faster than the structured clone's reader (and the sender's writer) does.
   */
  | {
      kind: 'files';
      /** The files without their boxes, each with `boxCount` (see HeldFile). */
      json: string;
      /** Each file's boxes as JSON text, in the files' order. */
      boxes: string[];
    }
  | { kind: 'done'; issues: ImportIssue[]; coco?: CocoKeptDataset }
  | { kind: 'failed'; message: string };
