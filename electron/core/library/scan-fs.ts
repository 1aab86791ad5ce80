/**
 * The fs calls of the scan, synchronous while they are fast.
 *
 * On a local disk a stat is a few µs of kernel time, but a promise stat costs ~25-40 µs of
 * threadpool round trip and allocation (100k files, measured on this 2-core machine: 1.8-2.3 s
 * async with 64 in flight vs 0.8-0.9 s sync, `find` 0.2 s). So calls run synchronously in slices
 * of at most SLICE_MS between event-loop turns, and switch to async calls for good as soon as one
 * call is slow (a network share, a sleeping disk), so the loop is never blocked for long.
 *
 * A slice is a stretch of calls the event loop did not turn in between: it starts at the first
 * call after a turn, not at the last yield. An isolated call (an upload's check, one per photo)
 * therefore never yields a turn of its own; measured from the last yield instead, every other
 * photo of a run waited one loop turn before its upload (~260 yields in 500 photos).
 */
import type { Dirent, Stats } from 'node:fs';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';

/** The fs calls the walk makes; tests replace them to provoke races (a file deleted mid-scan). */
export interface ScanFs {
  readdir(dir: string): Promise<Dirent[]>;
  readdirRaw(dir: string): Promise<Buffer[]>;
  stat(file: string): Promise<Stats>;
  lstat(file: string): Promise<Stats>;
  readdirSync(dir: string): Dirent[];
  readdirRawSync(dir: string): Buffer[];
  statSync(file: string): Stats;
  lstatSync(file: string): Stats;
}

const nodeFs: ScanFs = {
  readdir: (dir) => readdir(dir, { withFileTypes: true }),
  readdirRaw: (dir) => readdir(dir, { encoding: 'buffer' }),
  stat: (file) => stat(file),
  lstat: (file) => lstat(file),
  readdirSync: (dir) => readdirSync(dir, { withFileTypes: true }),
  readdirRawSync: (dir) => readdirSync(dir, { encoding: 'buffer' }),
  statSync: (file) => statSync(file),
  lstatSync: (file) => lstatSync(file),
};

/** Longest stretch of synchronous fs calls between two event-loop turns. */
const SLICE_MS = 8;
/**
 * Calls averaging this much over a window of WINDOW calls mean a slow filesystem: go async. An
 * average, not one call, so a loaded machine descheduling us once does not trip it.
 */
const SLOW_AVERAGE_MS = 1;
const WINDOW = 64;

export class SlicedFs {
  private readonly fs: ScanFs;
  private sync: boolean;
  /** Start of the current stretch; `inStretch` until the event loop turns (an immediate says so). */
  private sliceStart = 0;
  private inStretch = false;
  private windowCalls = 0;
  /**
   * Time spent inside the window's synchronous calls: the filesystem's time only, not the
   * caller's work between calls (a hashing or probing pass stores a page between its reads).
   */
  private windowBusy = 0;

  constructor(
    mode: 'auto' | 'async' = 'auto',
    overrides: Partial<ScanFs> = {},
    /** Longest stretch between yields: shorter where the loop also has uploads to send. */
    private readonly sliceMs = SLICE_MS,
  ) {
    this.fs = { ...nodeFs, ...overrides };
    this.sync = mode === 'auto';
  }

  get synchronous(): boolean {
    return this.sync;
  }

  readdir = (dir: string) =>
    this.call(
      () => this.fs.readdirSync(dir),
      () => this.fs.readdir(dir),
    );
  readdirRaw = (dir: string) =>
    this.call(
      () => this.fs.readdirRawSync(dir),
      () => this.fs.readdirRaw(dir),
    );
  stat = (file: string) =>
    this.call(
      () => this.fs.statSync(file),
      () => this.fs.stat(file),
    );
  lstat = (file: string) =>
    this.call(
      () => this.fs.lstatSync(file),
      () => this.fs.lstat(file),
    );

  /**
   * Any other pair of equivalent calls under the same policy: `sync` while calls are fast (and a
   * yield between slices), `async` for good once they are slow. Hashing and probing small files use it.
   */
  run<T>(sync: () => T, async: () => Promise<T>): Promise<T> {
    return this.call(sync, async);
  }

  private async call<T>(sync: () => T, async: () => Promise<T>): Promise<T> {
    if (!this.sync) return async();
    const start = performance.now();
    if (!this.inStretch) this.beginStretch(start);
    try {
      return sync();
    } finally {
      const now = performance.now();
      this.windowBusy += now - start;
      if (++this.windowCalls === WINDOW) {
        if (this.windowBusy > WINDOW * SLOW_AVERAGE_MS) this.sync = false;
        this.windowCalls = 0;
        this.windowBusy = 0;
      }
      // The stretch's own immediate, queued before this one, ends it: the next call starts anew.
      if (now - this.sliceStart > this.sliceMs)
        await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private beginStretch(at: number): void {
    this.inStretch = true;
    this.sliceStart = at;
    setImmediate(() => {
      this.inStretch = false;
    });
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
