/** What the import's thread (import-labels-worker.ts) is given and sends back. */
import type { ImportFormat, ImportSummary } from './import-labels.js';

export interface ImportWorkerData {
  file: string;
  nativeBinding: string | undefined;
  writeTurns: SharedArrayBuffer;
  /** Where the thread counts the bulk turns it holds (write-turns.ts). */
  heldTurns: SharedArrayBuffer;
  format: ImportFormat;
  source: string;
  solution: string;
}

export type ImportWorkerMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; summary: ImportSummary }
  | { kind: 'failed'; message: string; code: string | undefined };
