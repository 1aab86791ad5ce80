/**
 * Writes a scan's media rows on a thread of its own, with its own connection to the library file:
 * the ~8 µs of SQLite work per row (three indexes) then runs beside the walk and the plan instead
 * of on the thread that does them, and a cold plan of 100k files uses both cores. Rows are written
 * in the order given, one transaction per call, exactly as `media.writeMany` writes them.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteNativeBinding } from '../../node-lib/sqlite.js';
import { workerScript } from '../../node-lib/worker-script.js';
import { turnsForWorker } from '../../node-lib/write-turns.js';
import type { MediaUpsert } from './store-types.js';

export interface WriteRequest {
  id: number;
  rows: readonly MediaUpsert[];
}

export interface WriteAnswer {
  id: number;
  /** The rows' ids, in order (media-upsert-sql.ts). */
  ids?: Float64Array;
  error?: { message: string; code: string | undefined };
}

export interface MediaWriter {
  /**
   * Resolves with the rows' ids, in order, once they are committed; rejects with SQLite's error
   * (its code kept).
   */
  write(rows: readonly MediaUpsert[]): Promise<ArrayLike<number>>;
  /** Ends the thread; writes not answered yet are rejected. */
  close(): Promise<void>;
}

/** An error from the writer's thread, with SQLite's code (SQLITE_FULL…) as the store throws it. */
export class MediaWriteError extends Error {
  override readonly name = 'MediaWriteError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * A writer for the library database at `file`, or undefined where no worker script is built
 * (tests running the TypeScript source, a bundle without it): the caller then writes in-thread.
 */
export function createMediaWriter(file: string, checkpointPages: number): MediaWriter | undefined {
  // Another connection to an in-memory database would be another, empty database.
  if (file === '' || file === ':memory:') return undefined;
  const script = workerScript(import.meta.url, 'media-writer-worker.js');
  if (!existsSync(script)) return undefined;
  const pending = new Map<
    number,
    { resolve: (ids: ArrayLike<number>) => void; reject: (e: unknown) => void }
  >();
  let nextId = 1;
  let failure: unknown;
  const failAll = (err: unknown) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  // Started with the first write: a scan that finds nothing new starts no thread.
  let worker: Worker | undefined;
  const start = () => {
    const turns = turnsForWorker();
    const w = new Worker(script, {
      workerData: {
        file,
        nativeBinding: sqliteNativeBinding(),
        checkpointPages,
        ...turns.data,
      },
    });
    // Terminated inside a write (close), it could not give its turn back itself.
    w.once('exit', turns.release);
    w.on('message', (a: WriteAnswer) => {
      const p = pending.get(a.id);
      pending.delete(a.id);
      if (a.error) p?.reject(new MediaWriteError(a.error.message, a.error.code));
      else p?.resolve(a.ids ?? []);
    });
    w.on('error', failAll);
    w.on('exit', (code) => failAll(new Error(`The media writer stopped (exit code ${code}).`)));
    return w;
  };
  return {
    write(rows) {
      if (failure) return Promise.reject(failure);
      worker ??= start();
      const thread = worker;
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        thread.postMessage({ id, rows } satisfies WriteRequest);
      });
    },
    async close() {
      failAll(new Error('The media writer is closed.'));
      await worker?.terminate();
    },
  };
}
