/**
 * Brings the store in line with a scan: new and changed files are upserted (a changed file loses
 * its hash and probe results, so it is hashed and probed again), files not seen are marked missing.
 * Run at every start, this is how edits made while LabelDesk was closed are picked up.
 */
import type { MediaRecord, MediaUpsert, SnapshotEntry } from '../store/store-types.js';
import type { LibraryMediaStore } from './media-types.js';
import type { ReadRows } from './read-on-scan.js';
import type { ScanEntry } from './scan-folder.js';
import type { WatchEvent } from './watch-folders.js';

export interface ReconcileCounts {
  new: number;
  changed: number;
  unchanged: number;
  /** Present before, not found now. */
  missing: number;
  /** Marked missing before, back unchanged now (a drive plugged in again). */
  reappeared: number;
}

export interface ReconcileOptions {
  /** Rows per upsertMany/markMissing transaction (default 5000). */
  batchSize?: number;
  onProgress?: (counts: Readonly<ReconcileCounts>) => void;
  /**
   * Asked once the scan is over: true when the folder itself could not be read. Then nothing is
   * marked missing: an unplugged drive must not turn the whole folder into "missing" rows.
   */
  rootUnavailable?: () => boolean;
  /**
   * The part of the folder the scan covers (a subfolder or one file given on its own): rows
   * outside it are neither compared nor marked missing. The whole folder when absent.
   */
  scope?: (path: string) => boolean;
  /**
   * Files modified after this time (ms epoch) may still be being written: they are left as the
   * store has them (neither taken in nor marked missing) and passed to `onUnsettled`, for a
   * watcher or a later scan to take once complete. Absent: every file is taken as it is.
   */
  settledBefore?: number;
  onUnsettled?: (path: string) => void;
  /**
   * Reads new and changed files before they are written (read-on-scan.ts), so each row is
   * written once with its hash and probe; one batch is read while the walk goes on.
   */
  read?: ReadRows;
  /**
   * Writes new and changed rows elsewhere (a writer thread, media-writer.ts), one call per
   * transaction, in order; the scan goes on meanwhile. Absent: written here with `writeMany`.
   */
  writeRows?: (rows: readonly MediaUpsert[]) => Promise<ArrayLike<number> | undefined>;
  /**
   * Each chunk of new and changed rows once written, with their ids in order, when the writer
   * gives them (a plan keeps what it would otherwise read back; collect-media.ts).
   */
  onWritten?: (rows: readonly MediaUpsert[], ids: ArrayLike<number>) => void;
  /**
   * Given the rows known before the scan (by path), before the walk starts: a walk may leave the
   * stat of a path not among them to `read` (stat-later.ts), as such a file is new whatever its
   * stat says. The map shrinks as the scan sees its paths; it must not be changed.
   */
  onKnown?: (known: ReadonlyMap<string, unknown>) => void;
  /** Quitting: the snapshot of the store stops between its pages (the walk between its batches). */
  signal?: AbortSignal | undefined;
}

export async function reconcile(
  store: LibraryMediaStore,
  folderId: number,
  scan: AsyncIterable<readonly ScanEntry[]>,
  options: ReconcileOptions = {},
): Promise<ReconcileCounts> {
  const batchSize = options.batchSize ?? 5000;
  const counts: ReconcileCounts = { new: 0, changed: 0, unchanged: 0, missing: 0, reappeared: 0 };
  // Entries are deleted as they are seen, so what remains at the end is what vanished.
  // With it, the ids of its present rows (its other rows are errors).
  const { previous, present } = await snapshotOf(store, folderId, options.signal);
  if (options.scope) for (const p of previous.keys()) if (!options.scope(p)) previous.delete(p);
  const unchangedNotPresent: number[] = [];
  options.onKnown?.(previous);

  // Written a few thousand rows per transaction across the walk's batches: fewer commits.
  let upserts: MediaUpsert[] = [];
  const writeChunk =
    options.writeRows ?? ((chunk: readonly MediaUpsert[]) => store.media.writeMany(chunk));
  const store_ = async (rows: readonly MediaUpsert[]) => {
    for (let i = 0; i < rows.length; i += batchSize) {
      const chunk = rows.slice(i, i + batchSize);
      const ids = await writeChunk(chunk);
      if (ids && ids.length === chunk.length) options.onWritten?.(chunk, ids);
    }
  };
  // A read may drop a new file left unstated that turned out gone (an issue, as the walk gives).
  const dropped = (n: number) => (counts.new -= n);
  const reads = options.read && readsAhead(options.read, store_, dropped);
  const write = async (last = false) => {
    const rows = upserts;
    upserts = [];
    if (!reads) return await store_(rows);
    reads.add(rows);
    await (last ? reads.drain() : reads.room());
  };
  try {
    for await (const batch of scan) {
      for (const entry of batch) {
        const before = previous.get(entry.path);
        if (options.settledBefore !== undefined && entry.mtimeMs > options.settledBefore) {
          previous.delete(entry.path);
          options.onUnsettled?.(entry.path);
          continue;
        }
        if (!before) {
          counts.new++;
          upserts.push(fresh(folderId, entry));
          continue;
        }
        previous.delete(entry.path);
        // Another file under the same name (a link pointed elsewhere, a copy kept its size and
        // time) is a changed file: read again, never taken for the one read before.
        const otherFile = !!before.fileId && !!entry.fileId && before.fileId !== entry.fileId;
        if (before.size !== entry.size || before.mtimeMs !== entry.mtimeMs || otherFile) {
          counts.changed++;
          upserts.push(fresh(folderId, entry));
        } else {
          counts.unchanged++;
          if (!present.has(before.id)) unchangedNotPresent.push(before.id);
        }
      }
      if (upserts.length >= batchSize) await write();
      options.onProgress?.(counts);
    }
  } finally {
    // Stopped mid-walk: what was seen is kept (unread if the read was stopped too), and nothing is
    // marked missing below.
    await write(true);
  }

  const back: MediaUpsert[] = [];
  for (const id of unchangedNotPresent) {
    const row = store.media.byId(id);
    // An 'error' row stays one: the same bytes would fail the same way again.
    if (row?.status !== 'missing') continue;
    const { id: _id, ...rest } = row;
    back.push({ ...rest, status: 'present' });
  }
  for (let i = 0; i < back.length; i += batchSize) {
    store.media.upsertMany(back.slice(i, i + batchSize));
  }
  counts.reappeared = back.length;

  if (!options.rootUnavailable?.()) {
    // Rows already missing are marked again (harmless); only the present ones are news.
    const gone = [...previous.values()].map((p) => p.id);
    for (let i = 0; i < gone.length; i += batchSize) {
      store.media.markMissing(gone.slice(i, i + batchSize));
    }
    counts.missing = gone.filter((id) => present.has(id)).length;
  }
  options.onProgress?.(counts);
  return counts;
}

/**
 * Rows per page of the snapshot: 2,000 took 10–30 ms on an idle machine, and 50–70 ms beside an
 * import of 100k files (a start-up rescan under way), holding the UI's calls as long.
 */
const SNAPSHOT_PAGE = 500;

/**
 * The folder's rows as the store has them, and which are present, a page at a time with a turn
 * of the event loop between pages: in one call, 100k rows held the loop for 1–2.5 s, and a quit
 * with it (the present ids alone, 150 ms).
 */
async function snapshotOf(
  store: LibraryMediaStore,
  folderId: number,
  signal: AbortSignal | undefined,
): Promise<{ previous: Map<string, SnapshotEntry>; present: Set<number> }> {
  const media = store.media;
  const previous = new Map<string, SnapshotEntry>();
  const present = new Set<number>();
  for (let after = ''; ;) {
    signal?.throwIfAborted();
    const page = media.snapshotPage(folderId, after, SNAPSHOT_PAGE);
    for (const row of page) {
      previous.set(row.path, row.entry);
      if (row.present) present.add(row.entry.id);
    }
    const last = page[page.length - 1];
    if (!last || page.length < SNAPSHOT_PAGE) return { previous, present };
    after = last.path;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Batches read at once (read-on-scan.ts) while the walk goes on; the oldest waits for room. */
const READS_AHEAD = 3;

/**
 * Reads batches in the worker pool while the walk goes on, and stores each as soon as it is read,
 * in the order given: the walk never waits for a read unless READS_AHEAD are under way. A read
 * that fails (stopped, a worker lost) leaves its rows as a plain scan writes them.
 */
function readsAhead(
  read: ReadRows,
  store: (rows: readonly MediaUpsert[]) => Promise<void>,
  dropped: (n: number) => void,
) {
  let stored: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  const under: Promise<void>[] = [];
  const settled = () => {
    if (failure) throw failure.error;
  };
  return {
    add(rows: readonly MediaUpsert[]) {
      if (!rows.length) return;
      const reading = read(rows).catch(() => rows);
      // Chained: rows are stored in the order they were found, one batch after another.
      stored = stored.then(async () => {
        const done = await reading;
        if (done.length < rows.length) dropped(rows.length - done.length);
        if (!failure) await store(done);
      });
      // A store that throws (a full disk) is kept and thrown from room() or drain().
      under.push(stored.catch((error: unknown) => void (failure ??= { error })));
    },
    async room() {
      while (under.length >= READS_AHEAD) await under.shift();
      settled();
    },
    async drain() {
      await Promise.all(under.splice(0));
      settled();
    },
  };
}

/** A row for a file seen for the first time, or whose bytes changed: nothing known but its stat. */
export function fresh(folderId: number, entry: ScanEntry): MediaUpsert {
  return {
    folderId,
    path: entry.path,
    kind: entry.kind,
    size: entry.size,
    mtimeMs: entry.mtimeMs,
    contentHash: null,
    width: null,
    height: null,
    orientation: 1,
    durationMs: null,
    fps: null,
    status: 'present',
    errorCode: null,
    errorMessage: null,
    fileId: entry.fileId ?? null,
  };
}

/** Stores one watch event; false when the store already knew it (e.g. a chmod). */
export function applyWatchEvent(store: LibraryMediaStore, e: WatchEvent): boolean {
  const row = store.media.byPath(e.path);
  if (e.type === 'removed') {
    if (!row || row.status === 'missing') return false;
    store.media.markMissing([row.id]);
    return true;
  }
  const sameFile = !row?.fileId || !e.fileId || row.fileId === e.fileId;
  if (row && row.size === e.size && row.mtimeMs === e.mtimeMs && sameFile) {
    if (row.status !== 'missing') return false;
    store.media.upsertMany([{ ...upsertOf(row), status: 'present' }]);
    return true;
  }
  const folder = store.folders.list().find((f) => f.path === e.root);
  if (!folder) return false;
  store.media.upsertMany([fresh(folder.id, e)]);
  return true;
}

export function upsertOf(row: MediaRecord): MediaUpsert {
  const { id: _id, ...rest } = row;
  return rest;
}
