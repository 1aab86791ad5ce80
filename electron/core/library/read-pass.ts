/**
 * The read pass of new files: hashes and header parses run in the read pool's worker threads while
 * this thread stores the previous page, so both cores work and SQLite never waits for the disk.
 * Results are stored with narrow updates guarded by the size and mtime read, ten thousand per
 * transaction (a commit per 500 rows took 5 s of a 48 s profiled cold plan of 100k files). What
 * the fast parser leaves (other formats, clips, large files) is probed here, as `probeMedia` did.
 */
import type { MediaReadResult, MediaRecord } from '../store/store-types.js';
import type { LibraryMediaStore } from './media-types.js';
import { growingPages, pendingPages } from './pending-pages.js';
import { probeMedia, type ProbeResult } from './probe-media.js';
import { createReadPool, type ReadPool } from './read-pool.js';
import type { FileRead } from './read-files.js';
import { forEachLimited, SlicedFs } from './scan-fs.js';

/** Rows per transaction: a fraction of a second to store, so an abort waits for little. */
const STORE_EVERY = 10_000;
/**
 * A pass that feeds a run (`onStored`) reads photos up to this size on the main thread: the run's
 * uploads need that thread anyway, and the threads' start-up and messages cost more CPU than
 * such photos take to read (read-pool.ts).
 */
const INLINE_WHILE_SENDING_BYTES = 64 * 1024;

export interface ReadPassCounts {
  hashed: { done: number; failed: number };
  probed: { done: number; failed: number };
}

export interface ReadPassOptions {
  store: LibraryMediaStore;
  workers: number;
  ffprobePath: string | undefined;
  only: { folderIds?: readonly number[] };
  signal: AbortSignal | undefined;
  onProgress: ((counts: ReadPassCounts) => void) | undefined;
  /**
   * Given: each page is stored as soon as it is read, then its row ids are passed here (a run
   * can plan and send them while later pages are read), and the first pages are small.
   */
  onStored?: ((ids: readonly number[]) => void) | undefined;
  /** Stores a per-file failure on its row. */
  fail: (row: MediaRecord, code: string, message: string) => void;
}

export async function readPendingMedia(options: ReadPassOptions): Promise<ReadPassCounts> {
  const { store, signal, ffprobePath } = options;
  const counts: ReadPassCounts = { hashed: { done: 0, failed: 0 }, probed: { done: 0, failed: 0 } };
  // Started with the first page: a pass that finds nothing to read (after a scan that read what it
  // found, or on a warm library) starts no threads.
  let pool: ReadPool | undefined;
  // One fast-disk policy for the probes made here, as in probePending.
  const fs = new SlicedFs();
  let updates: MediaReadResult[] = [];
  const store_ = () => {
    store.media.setHashAndProbe(updates);
    updates = [];
  };
  const { onStored } = options;
  const pages = pendingPages(
    store,
    'hash',
    (m) => m.contentHash === null,
    options.only,
    onStored ? growingPages : undefined,
  );
  const readPage = (page: MediaRecord[]) => {
    // Only what the workers need crosses the thread boundary (each message is copied).
    pool ??= createReadPool(
      options.workers,
      onStored ? { inlineFileBytes: INLINE_WHILE_SENDING_BYTES } : {},
    );
    const reads = pool.read(
      page.map((m) => ({ path: m.path, kind: m.kind })),
      signal,
    );
    reads.catch(() => undefined); // awaited below; an abort must not count as unhandled
    return { page, reads };
  };
  try {
    let next = await pages.next();
    let current = next.done ? undefined : readPage(next.value);
    while (current) {
      // The next page is read by the workers while this one is stored.
      next = await pages.next();
      const following = next.done ? undefined : readPage(next.value);
      const reads = await current.reads;
      const toProbe: { row: MediaRecord; update: MediaReadResult }[] = [];
      current.page.forEach((row, i) => {
        const update = resultOf(row, reads[i] as FileRead);
        if (update && row.width === null && !update.probe) toProbe.push({ row, update });
        else if (update) updates.push(update);
      });
      // Other formats, clips and large files: probed as probePending does, two at a time.
      await forEachLimited(toProbe, 2, async ({ row, update }) => {
        const probe = await probeMedia(row.path, row.kind, { ffprobePath, fs });
        updates.push(withProbe(row, update, probe));
      });
      if (onStored) {
        store_();
        onStored(current.page.map((row) => row.id));
      } else if (updates.length >= STORE_EVERY) store_();
      options.onProgress?.(counts);
      // Aborted: what was read is stored (finally); the rest waits for the next start.
      signal?.throwIfAborted();
      current = following;
    }
  } finally {
    store_();
    await pool?.close();
  }
  return counts;

  /** Counts and stores a failure; the update to store, probed when the bytes were enough. */
  function resultOf(row: MediaRecord, read: FileRead): MediaReadResult | undefined {
    if (!read.ok) {
      counts.hashed.failed++;
      options.fail(row, read.error.code, read.error.message);
      return undefined;
    }
    // Changed since the scan: not recorded against this row (the next scan sees it).
    if (read.size !== row.size || read.mtimeMs !== row.mtimeMs) return undefined;
    counts.hashed.done++;
    const update = { id: row.id, size: read.size, mtimeMs: read.mtimeMs, contentHash: read.hash };
    if (row.width !== null || !read.probe) return update;
    return withProbe(row, update, read.probe);
  }

  function withProbe(row: MediaRecord, update: MediaReadResult, probe: ProbeResult) {
    if (!probe.ok) {
      counts.probed.failed++;
      options.fail(row, probe.code, probe.message);
      return update;
    }
    counts.probed.done++;
    const { width, height, orientation, durationMs, fps } = probe.info;
    return { ...update, probe: { width, height, orientation, durationMs, fps } };
  }
}
