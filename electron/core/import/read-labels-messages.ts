/** What the label-reading thread sends back (read-labels-worker.ts). */
import type { CocoKeptDataset } from './coco-kept.js';
import type { ImportedFile, ImportIssue } from './import-model.js';

/**
 * Files per message: a message of 500 COCO files (~5,000 boxes) is received in a few milliseconds,
 * where one message of 100,000 files held the receiving thread for about half a second.
 */
export const FILES_PER_MESSAGE = 500;

export type ReadLabelsMessage =
  | { kind: 'files'; files: ImportedFile[] }
  | { kind: 'done'; issues: ImportIssue[]; coco?: CocoKeptDataset }
  | { kind: 'failed'; message: string };
