/**
 * The library facade: folders, the start-up scan, hashing and probing of what is new, and live
 * watching. Everything is stored through the LibraryStore; nothing here keeps media in memory.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createMediaWriter } from '../store/media-writer.js';
import { BULK_CHECKPOINT_PAGES } from '../store/bulk-writes.js';
import type { FolderRow, MediaRecord, MediaUpsert } from '../store/store-types.js';
import { hashMany } from './hash-file.js';
import type { LibraryIssue, LibraryMediaStore } from './media-types.js';
import { probeMedia } from './probe-media.js';
import { readPendingMedia } from './read-pass.js';
import { readOnScan } from './read-on-scan.js';
import { createReadPool, type ReadPool } from './read-pool.js';
import { absorbFileRoots, addFileRoot, folderRootsOnly, scanRoot } from './library-roots.js';
import {
  applyWatchEvent,
  type ReconcileCounts,
  type ReconcileOptions,
  reconcile,
  upsertOf,
} from './reconcile.js';
import { checkedFolder, refuseOverlap } from './folder-refusal.js';
import { isWithin } from './path-within.js';
import { pendingPages } from './pending-pages.js';
import { forEachLimited, SlicedFs } from './scan-fs.js';
import type { FolderWatcher, WatchEvent } from './watch-folders.js';

export interface LibraryOptions {
  ffprobePath?: string;
  /** Write-finish detection of the watcher (default 400 ms). */
  stableMs?: number;
  hashConcurrency?: number;
  probeConcurrency?: number;
  /** Every per-entry problem of scans and watching. */
  onIssue?: (issue: LibraryIssue) => void;
  /** A watched root went missing (watching paused) or came back. */
  onRootState?: (root: string, present: boolean) => void;
}

/** Which folders to watch (all by default), and which of them to poll. */
export interface LibraryWatchOptions extends RootFilter {
  /** Folders (their stored path) to stat-poll instead of watch: network drives send no events.
   *  Asked again whenever the folder list changes. */
  pollingFor?: (folderPath: string) => boolean;
  /** Closes the watcher, an initial listing in progress included (quitting never waits for it). */
  signal?: AbortSignal;
}

export interface ScanCounts extends ReconcileCounts {
  issues: number;
}

export interface ScanProgress {
  folder: FolderRow;
  /** Totals over all folders so far. */
  counts: Readonly<ScanCounts>;
}

/** Limits work to some roots (all of them when absent): a command touches only what it was given. */
export interface RootFilter {
  folderIds?: readonly number[];
}

export interface WorkCounts {
  done: number;
  failed: number;
}

export interface ReadCounts {
  hashed: WorkCounts;
  probed: WorkCounts;
}

export class Library {
  private watcher:
    | { watcher: FolderWatcher; onEvent: (e: WatchEvent) => void; options: LibraryWatchOptions }
    | undefined;

  constructor(
    private readonly store: LibraryMediaStore,
    private readonly options: LibraryOptions = {},
  ) {}

  /**
   * Adds a folder (idempotent for the same path). Nested folders are refused: one file, one row.
   * Files added on their own inside it join it (see library-roots.ts). `/`, a relative path and
   * anything but a folder are refused (FolderRefusal), each with its own sentence.
   */
  async addFolder(folderPath: string): Promise<FolderRow> {
    const abs = await checkedFolder(folderPath);
    const existing = this.store.folders.list();
    const same = existing.find((f) => f.path === abs);
    if (!same) await refuseOverlap(abs, existing);
    const row = same ?? this.store.folders.add(abs);
    absorbFileRoots(this.store, row);
    if (!same) await this.rewatch();
    return row;
  }

  /**
   * Adds one media file without its folder: the root holding it if there is one, else a root of
   * its own that is never walked or watched. Throws NotMediaError for other files.
   */
  async addFile(filePath: string): Promise<FolderRow> {
    const abs = path.resolve(filePath);
    const st = await stat(abs);
    if (!st.isFile()) throw new Error(`${abs} is not a file.`);
    return addFileRoot(this.store, abs);
  }

  async removeFolder(id: number): Promise<void> {
    this.store.folders.remove(id);
    await this.rewatch();
  }

  /** Scans every root and reconciles the store with what is on disk now. */
  scanAll(onProgress?: (progress: ScanProgress) => void): Promise<ScanCounts> {
    return this.scan(this.store.folders.list(), onProgress);
  }

  /**
   * Scans these roots (folders or single files) and reconciles the store with the disk. A root
   * given with `within` is scanned only there (a subfolder or a file of it): what lies elsewhere
   * in the root is neither read nor marked missing. `readNew`: new and changed files are hashed
   * and probed as they are found, so their rows are written once (a command that reads them all
   * anyway); otherwise that is left to `hashAndProbePending`. `onWritten` gets each chunk of new
   * and changed rows once written, with their ids (when the writer gives them).
   */
  async scan(
    roots: readonly (FolderRow & { within?: string })[],
    onProgress?: (progress: ScanProgress) => void,
    settle?: { ms: number; onUnsettled: (path: string) => void },
    signal?: AbortSignal,
    readNew = false,
    onWritten?: ReconcileOptions['onWritten'],
  ): Promise<ScanCounts> {
    const pool = readNew ? createReadPool(this.options.hashConcurrency ?? 2) : undefined;
    // A scan that reads what it finds writes rows as fast as workers read them: off this thread.
    const file = readNew ? this.store.file : undefined;
    const writer = file ? createMediaWriter(file, BULK_CHECKPOINT_PAGES) : undefined;
    const scan = () =>
      this.scanWith(roots, onProgress, settle, signal, {
        ...(pool ? { pool } : {}),
        ...(writer ? { writeRows: writer.write } : {}),
        ...(onWritten ? { onWritten } : {}),
      });
    try {
      // A first scan writes every row: checkpointing the log every 4 MB on the way (SQLite's
      // default) cost ~1 s of waiting per 100k files; it is checkpointed once at the end instead.
      return await this.store.bulkWrites(scan);
    } finally {
      await Promise.all([pool?.close(), writer?.close()]);
    }
  }

  private async scanWith(
    roots: readonly (FolderRow & { within?: string })[],
    onProgress: ((progress: ScanProgress) => void) | undefined,
    settle: { ms: number; onUnsettled: (path: string) => void } | undefined,
    signal: AbortSignal | undefined,
    io: Pick<ReconcileOptions, 'writeRows' | 'onWritten'> & { pool?: ReadPool },
  ): Promise<ScanCounts> {
    const total: ScanCounts = {
      new: 0,
      changed: 0,
      unchanged: 0,
      missing: 0,
      reappeared: 0,
      issues: 0,
    };
    for (const folder of roots) {
      const base = { ...total };
      const within = folder.within ?? folder.path;
      const onIssue = (issue: LibraryIssue) => {
        total.issues++;
        this.options.onIssue?.(issue);
      };
      // Files new to the store are read anyway: their stat is left to the read (stat-later.ts),
      // unless a settle time needs their mtime first. Nothing is left before the store is known.
      let known: ReadonlyMap<string, unknown> | undefined;
      const statLater =
        io.pool && !settle ? (p: string) => known !== undefined && !known.has(p) : undefined;
      const scan = await scanRoot(this.store, folder, onIssue, within, statLater);
      // Aborted mid-walk: reconcile ends before marking anything missing; the next scan redoes it.
      await reconcile(this.store, folder.id, abortable(scan.entries, signal), {
        rootUnavailable: () => scan.rootLost(),
        signal,
        ...(io.pool ? { read: readOnScan(io.pool, signal, onIssue) } : {}),
        ...(io.writeRows ? { writeRows: io.writeRows } : {}),
        ...(io.onWritten ? { onWritten: io.onWritten } : {}),
        onKnown: (previous) => (known = previous),
        ...(settle
          ? { settledBefore: Date.now() - settle.ms, onUnsettled: settle.onUnsettled }
          : {}),
        ...(within === folder.path ? {} : { scope: (p: string) => isWithin(p, within) }),
        onProgress: (c) => {
          for (const k of ['new', 'changed', 'unchanged', 'missing', 'reappeared'] as const)
            total[k] = base[k] + c[k];
          onProgress?.({ folder, counts: total });
        },
      });
      if (!scan.rootLost() && within === folder.path) {
        this.store.folders.markScanned(folder.id, Date.now());
      }
    }
    return total;
  }

  /** Hashes present media without a content hash. A file changed since its row is skipped. */
  async hashPending(
    onProgress?: (counts: WorkCounts) => void,
    only: RootFilter = {},
    signal?: AbortSignal,
  ): Promise<WorkCounts> {
    const counts: WorkCounts = { done: 0, failed: 0 };
    for await (const page of pendingPages(
      this.store,
      'hash',
      (m) => m.contentHash === null,
      only,
    )) {
      const byPath = new Map(page.map((m) => [m.path, m]));
      const results = await hashMany([...byPath.keys()], {
        concurrency: this.options.hashConcurrency ?? 2,
      });
      const upserts: MediaUpsert[] = [];
      for (const r of results) {
        const row = byPath.get(r.path) as MediaRecord;
        if ('error' in r) {
          counts.failed++;
          this.fail(row, r.error.code, r.error.message);
        } else if (r.size === row.size && r.mtimeMs === row.mtimeMs) {
          counts.done++;
          upserts.push({ ...upsertOf(row), contentHash: r.hash });
        }
      }
      this.store.media.upsertMany(upserts);
      onProgress?.(counts);
      signal?.throwIfAborted();
    }
    return counts;
  }

  /** Probes present media not probed yet (no width); a failure is stored on the row. */
  async probePending(
    onProgress?: (counts: WorkCounts) => void,
    only: RootFilter = {},
    signal?: AbortSignal,
  ): Promise<WorkCounts> {
    const counts: WorkCounts = { done: 0, failed: 0 };
    const concurrency = this.options.probeConcurrency ?? 2;
    // One fast-disk policy for the whole pass: JPEG headers are read synchronously while fast.
    const fs = new SlicedFs();
    for await (const page of pendingPages(this.store, 'probe', (m) => m.width === null, only)) {
      const upserts: MediaUpsert[] = [];
      await forEachLimited(page, concurrency, async (row) => {
        if (signal?.aborted) return;
        const r = await probeMedia(row.path, row.kind, {
          ffprobePath: this.options.ffprobePath,
          fs,
        });
        if (!r.ok) {
          counts.failed++;
          return this.fail(row, r.code, r.message);
        }
        counts.done++;
        const { width, height, orientation, durationMs, fps } = r.info;
        upserts.push({ ...upsertOf(row), width, height, orientation, durationMs, fps });
      });
      this.store.media.upsertMany(upserts);
      onProgress?.(counts);
      signal?.throwIfAborted();
    }
    return counts;
  }

  /**
   * `hashPending` then `probePending` in one pass (read-pass.ts): each file is read once in a
   * worker thread, hashed, and its header parsed from the same bytes; what the fast parser defers
   * is probed as `probePending` would. Failures are stored as the two passes would store them;
   * what this pass leaves unprobed (e.g. a file changed since the scan) is then handed to
   * `probePending`, as before. `onStored` gets the ids of each page once it is stored.
   */
  async hashAndProbePending(
    onProgress?: (counts: ReadCounts) => void,
    only: RootFilter = {},
    signal?: AbortSignal,
    onStored?: (ids: readonly number[]) => void,
  ): Promise<ReadCounts> {
    const counts = await readPendingMedia({
      store: this.store,
      workers: this.options.hashConcurrency ?? 2,
      ffprobePath: this.options.ffprobePath,
      only,
      signal,
      onProgress,
      onStored,
      fail: (row, code, message) => this.fail(row, code, message),
    });
    const { hashed, probed } = counts;
    // Hashed before but never probed, or left out above: probed exactly as before.
    const rest = await this.probePending(
      (c) =>
        onProgress?.({
          hashed,
          probed: { done: probed.done + c.done, failed: probed.failed + c.failed },
        }),
      only,
      signal,
    );
    probed.done += rest.done;
    probed.failed += rest.failed;
    return counts;
  }

  /**
   * Watches the folder roots (all, or those of `options.folderIds`), keeps the store current, then
   * tells `onEvent` what really changed. File roots are not watched.
   */
  async watch(
    onEvent: (event: WatchEvent) => void,
    options: LibraryWatchOptions = {},
  ): Promise<FolderWatcher> {
    await this.watcher?.watcher.close();
    const ids = options.folderIds && new Set(options.folderIds);
    const chosen = this.store.folders.list().filter((f) => !ids || ids.has(f.id));
    const roots = (await folderRootsOnly(this.store, chosen)).map((f) => f.path);
    options.signal?.throwIfAborted();
    // Loaded when a watch starts: a one-shot `labeldesk label` starts without chokidar.
    const { watchFolders } = await import('./watch-folders.js');
    // Quit while loading: a watcher started now would walk the whole tree before its close
    // (an abort listener added after the abort never fires).
    options.signal?.throwIfAborted();
    const watcher = watchFolders(roots, (e) => applyWatchEvent(this.store, e) && onEvent(e), {
      stableMs: this.options.stableMs,
      onIssue: this.options.onIssue,
      onRootState: this.options.onRootState,
      pollingFor: options.pollingFor,
    });
    this.watcher = { watcher, onEvent, options };
    const onAbort = () => void watcher.close();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    await watcher.ready;
    return {
      ready: watcher.ready,
      close: async () => {
        // A folder added or removed since re-watched with a new watcher: that one is closed too.
        const current = this.watcher?.onEvent === onEvent ? this.watcher.watcher : undefined;
        if (current) this.watcher = undefined;
        options.signal?.removeEventListener('abort', onAbort);
        await Promise.all([watcher.close(), current?.close()]);
      },
    };
  }

  /** Folder list changed while watching: watch the new list (a folder walk, ~0.3 s per 100k files). */
  private async rewatch(): Promise<void> {
    if (this.watcher) await this.watch(this.watcher.onEvent, this.watcher.options);
  }

  private fail(row: MediaRecord, code: string, message: string): void {
    if (code === 'not_found') this.store.media.markMissing([row.id]);
    else if (code !== 'changed_while_reading') this.store.media.markError(row.id, code, message);
  }
}

/** The walk's batches until `signal` aborts; then it throws, before the walk is complete. */
async function* abortable<T>(batches: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const batch of batches) {
    signal?.throwIfAborted();
    yield batch;
  }
  signal?.throwIfAborted();
}
