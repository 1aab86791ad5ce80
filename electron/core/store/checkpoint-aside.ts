/**
 * Checkpoints beside a long series of writes (an import): the writing connection stops copying its
 * log into the database on commit, and a thread with its own connection (checkpoint-worker.ts)
 * copies it every quarter of a second instead, then once at the end. The writer's thread then
 * never holds its loop for a checkpoint; the log stays small, as the copies keep up with it.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteNativeBinding } from '../../node-lib/sqlite.js';
import { workerScript } from '../../node-lib/worker-script.js';
import { copyingAside } from '../../node-lib/write-turns.js';

const EVERY_MS = 250;

export interface CheckpointAside {
  /** The last copy done and the thread gone (never rejects: the writer's own checkpoint follows). */
  stop(): Promise<void>;
}

/**
 * Undefined where there is no file to share or no worker script built: the writer checkpoints.
 * With `minPages`, a copy waits until the log holds that many pages (as SQLite's own would).
 */
export function startCheckpointAside(file: string, minPages = 0): CheckpointAside | undefined {
  if (file === '' || file === ':memory:') return undefined;
  const script = workerScript(import.meta.url, 'checkpoint-worker.js');
  if (!existsSync(script)) return undefined;
  const worker = new Worker(script, {
    workerData: { file, nativeBinding: sqliteNativeBinding(), everyMs: EVERY_MS, minPages },
  });
  // Told to the process's other connections: their commits need not copy the log meanwhile.
  const ended = copyingAside();
  const gone = new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    worker.once('error', () => resolve());
  }).finally(ended);
  return {
    async stop() {
      worker.postMessage('stop');
      await gone;
    },
  };
}
