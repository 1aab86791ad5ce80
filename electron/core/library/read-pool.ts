/**
 * A small pool of worker threads that read, hash and parse files (read-files.ts), so a read pass
 * uses every core and the main thread only stores results. Synchronous reads are fine there: they
 * block a worker, never the event loop, so a slow disk costs no responsiveness. Aborting ends the
 * workers at once (after the 1 MiB read in progress), so quitting never waits for a large file.
 */
import { Worker } from 'node:worker_threads';
import { workerScript } from '../../node-lib/worker-script.js';
import { existsSync, statSync } from 'node:fs';
import { type FileRead, type FileToRead, readFileIfSmall, readFiles } from './read-files.js';
import { fromWire, type WireRead } from './read-wire.js';
import { SlicedFs } from './scan-fs.js';

/** Files per message: large enough to amortise a round trip, small enough to share the work. */
const BATCH = 64;
/**
 * Messages queued at each worker. The main thread hands out the next batch only between its own
 * tasks (a scan's 8 ms slice of stats, a transaction of 5,000 rows): with one batch each (~2.5 ms
 * of small JPEGs), the workers sat idle two thirds of a cold plan. Each waits for its own batches,
 * so a large clip delays at most a few files behind it.
 */
const IN_FLIGHT = 16;
/**
 * A read this small (files and bytes) is done on this thread while no worker has started yet: a
 * worker takes 40-400 ms to start (the more so on a busy machine) and a small page of photos
 * ~1-3 ms to read, so a run's first uploads do not wait for the threads (`label --yes` sends
 * each page as soon as it is read). Large files still go to the workers: hashing them here would
 * hold up the event loop.
 */
const INLINE_WHILE_STARTING = { files: 16, bytes: 4 * 1024 * 1024 };

export interface ReadPoolOptions {
  /**
   * Photos of at most this many bytes are read on this thread (in short slices, while the disk is
   * fast) and the threads start only for the rest. For a pass beside a run's uploads on a 2-core
   * machine: two threads cost ~340 ms of CPU each for 500 small photos (a third of it their
   * start-up), where reading them here costs 30-40 ms.
   */
  inlineFileBytes?: number;
}

export interface ReadPool {
  /** Results in the order of `files`. Rejects with the signal's reason when it aborts. */
  read(files: readonly FileToRead[], signal?: AbortSignal): Promise<FileRead[]>;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  /** Batches sent and not answered yet. */
  sent: number;
}

interface Batch {
  id: number;
  files: FileToRead[];
  resolve: (r: FileRead[]) => void;
  reject: (e: unknown) => void;
}

export function createReadPool(size: number, options: ReadPoolOptions = {}): ReadPool {
  const script = workerScript(import.meta.url, 'read-worker.js');
  // Run from TypeScript source without a build (a unit test): the same reads, on this thread.
  if (!existsSync(script)) return inlinePool();
  const inline = options.inlineFileBytes ? inlineReader(options.inlineFileBytes) : undefined;
  const slots: Slot[] = [];
  const queue: Batch[] = [];
  const running = new Map<number, Batch>();
  let nextId = 1;
  let failure: unknown;
  let started = false;

  const failAll = (err: unknown) => {
    failure ??= err;
    for (const b of [...queue.splice(0), ...running.values()]) b.reject(failure);
    running.clear();
    for (const s of slots) void s.worker.terminate();
  };
  const pump = () => {
    // The least loaded worker first, one batch at a time, so both get work when little is queued.
    for (;;) {
      const slot = slots.reduce((a, b) => (b.sent < a.sent ? b : a));
      if (slot.sent >= IN_FLIGHT) return;
      const batch = queue.shift();
      if (!batch) return;
      slot.sent++;
      running.set(batch.id, batch);
      slot.worker.postMessage({ id: batch.id, files: batch.files });
    }
  };
  // Threads start with the first read: a scan that finds nothing new starts none.
  const start = () => {
    for (let i = 0; i < Math.max(1, size); i++) slots.push(startSlot());
  };
  const startSlot = (): Slot => {
    const slot: Slot = { worker: new Worker(script), sent: 0 };
    slot.worker.on('message', (m: { id: number; results: WireRead[] }) => {
      slot.sent--;
      running.get(m.id)?.resolve(m.results.map(fromWire));
      running.delete(m.id);
      pump();
    });
    slot.worker.once('online', () => (started = true));
    slot.worker.on('error', failAll);
    slot.worker.on('exit', (code) => {
      if (!failure) failAll(new Error(`A file-reading worker stopped (exit code ${code}).`));
    });
    return slot;
  };

  /** The threads' reads (started with the first), or this thread's for a small first read. */
  const viaThreads = async (files: readonly FileToRead[], signal?: AbortSignal) => {
    if (failure) throw failure;
    if (!slots.length && files.length) start();
    if (!started && smallRead(files)) return readFiles(files);
    const onAbort = () => failAll(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const parts: Promise<FileRead[]>[] = [];
      for (let i = 0; i < files.length; i += BATCH) {
        const chunk = files.slice(i, i + BATCH);
        parts.push(
          new Promise((resolve, reject) => {
            queue.push({ id: nextId++, files: chunk, resolve, reject });
          }),
        );
      }
      pump();
      return (await Promise.all(parts)).flat();
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  return {
    async read(files, signal) {
      signal?.throwIfAborted();
      if (failure) throw failure;
      if (!inline) return viaThreads(files, signal);
      const { reads, rest } = await inline(files, signal);
      if (rest.length === 0) return reads as FileRead[];
      const more = await viaThreads(
        rest.map((i) => files[i] as FileToRead),
        signal,
      );
      rest.forEach((i, k) => (reads[i] = more[k]));
      return reads as FileRead[];
    },
    async close() {
      failure ??= new Error('The file-reading pool is closed.');
      for (const b of queue.splice(0)) b.reject(failure);
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Few photos, few bytes (a file that cannot be stat'ed is reported by the read itself). */
function smallRead(files: readonly FileToRead[]): boolean {
  if (files.length > INLINE_WHILE_STARTING.files) return false;
  let bytes = 0;
  for (const f of files) {
    if (f.kind !== 'image') return false;
    bytes += sizeOf(f.path);
    if (bytes > INLINE_WHILE_STARTING.bytes) return false;
  }
  return true;
}

function inlinePool(): ReadPool {
  return {
    read: async (files, signal) => {
      signal?.throwIfAborted();
      return readFiles(files);
    },
    close: async () => undefined,
  };
}

/**
 * Reads the small photos of `files` on this thread under the scan's fast-disk policy (scan-fs.ts);
 * `rest` are the indexes left for the threads (larger files, other kinds, or all once the disk is
 * slow).
 */
function inlineReader(maxBytes: number) {
  // Slices of 2 ms, not the scan's 8: a run's first uploads wait for no more than one slice.
  const fs = new SlicedFs('auto', {}, 2);
  const buffer = Buffer.allocUnsafe(maxBytes);
  return async (files: readonly FileToRead[], signal: AbortSignal | undefined) => {
    const reads: (FileRead | undefined)[] = new Array(files.length);
    const rest: number[] = [];
    for (let i = 0; i < files.length; i++) {
      const f = files[i] as FileToRead;
      const read =
        f.kind === 'image'
          ? await fs.run(
              () => readFileIfSmall(f, buffer),
              async () => undefined,
            )
          : undefined;
      if (read) reads[i] = read;
      else rest.push(i);
      signal?.throwIfAborted();
    }
    return { reads, rest };
  };
}
