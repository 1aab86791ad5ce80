/** Long series of write transactions: the log is copied into the database less often, or aside. */
import type { Db } from '../../node-lib/sqlite.js';
import { copiesAside } from '../../node-lib/write-turns.js';
import { startCheckpointAside } from './checkpoint-aside.js';

/** Log pages between automatic checkpoints during bulk writes (SQLite's default is 1000). */
export const BULK_CHECKPOINT_PAGES = 10_000;
/** SQLite's own automatic checkpoint size: what `once-large` waits for before a thread starts. */
const LARGE_LOG_PAGES = 1000;
/** How often `once-large` reads the log's length (a NOOP checkpoint: a few µs). */
const LOG_CHECK_MS = 250;

export interface BulkWriteOptions {
  /**
   * Copy the log on a thread of its own (checkpoint-aside.ts), never on this connection's
   * commits: for writes that share their thread with a UI (an import). `'once-large'`: the
   * thread starts only once the log reaches SQLite's own checkpoint size, and copies only from
   * there, so a short series starts no thread and leaves its log as SQLite would (a labelling run:
   * SQLite's checkpoint held its loop, and every upload waiting on it, for fsyncs of 3-16 ms).
   */
  checkpointAside?: boolean | 'once-large';
}

/**
 * The series open on a connection: they may overlap (a labelling run while a folder is rescanned),
 * so the connection's own setting comes back only when the last one ends, never to another's.
 */
interface OpenSeries {
  before: number;
  bulk: number;
  aside: number;
}
const openSeries = new WeakMap<Db, OpenSeries>();

/**
 * Connections that copy nothing on their commits while another thread of the process copies the
 * log aside (an import's), with their own setting to come back to. Such a copy on a person's edit
 * took 25-40 ms of the thread serving the UI beside a 100k import (every edit: the log is never
 * short then), and duplicated the thread's work.
 */
const followingAside = new WeakMap<Db, number>();

function applySetting(db: Db, series: OpenSeries): void {
  const aside = series.aside > 0 || followingAside.has(db);
  const pages = aside ? 0 : series.bulk > 0 ? BULK_CHECKPOINT_PAGES : series.before;
  db.pragma(`wal_autocheckpoint = ${pages}`);
}

/** The connection's setting as its own (not the one set while following a copy aside). */
const ownPages = (db: Db): number =>
  followingAside.get(db) ?? (db.pragma('wal_autocheckpoint', { simple: true }) as number);

/**
 * Before a write on a connection of writes people wait for (write-turns.ts): copies nothing on
 * its commit while a thread of the process copies the log aside; its own setting back after.
 */
export function followCopiesAside(db: Db): void {
  const aside = copiesAside();
  if (followingAside.has(db) === aside) return;
  const series = openSeries.get(db);
  if (aside) followingAside.set(db, series?.before ?? ownPages(db));
  const own = followingAside.get(db);
  if (!aside) followingAside.delete(db);
  if (series) applySetting(db, series);
  else db.pragma(`wal_autocheckpoint = ${aside ? 0 : (own ?? 1000)}`);
}

export async function bulkWrites<T>(
  db: Db,
  file: string,
  fn: () => Promise<T>,
  options: BulkWriteOptions = {},
): Promise<T> {
  const series = openSeries.get(db) ?? {
    before: ownPages(db),
    bulk: 0,
    aside: 0,
  };
  openSeries.set(db, series);
  const mode = options.checkpointAside ?? false;
  let aside = mode === true ? startCheckpointAside(file) : undefined;
  /** What this series counts as; none once a `once-large` series falls back to SQLite's own. */
  let kind: 'aside' | 'bulk' | undefined = mode === 'once-large' || aside ? 'aside' : 'bulk';
  series[kind]++;
  applySetting(db, series);
  let check: NodeJS.Timeout | undefined;
  if (mode === 'once-large') {
    check = setInterval(() => {
      if (!db.open || logPages(db) < LARGE_LOG_PAGES) return;
      clearInterval(check);
      aside = startCheckpointAside(file, LARGE_LOG_PAGES);
      if (aside) return;
      // No thread to copy it: SQLite's own checkpoint takes over again.
      series.aside--;
      kind = undefined;
      applySetting(db, series);
    }, LOG_CHECK_MS);
    check.unref();
  }
  try {
    return await fn();
  } finally {
    clearInterval(check);
    if (kind) series[kind]--;
    if (series.aside + series.bulk === 0) openSeries.delete(db);
    if (db.open) applySetting(db, series);
    // A short `once-large` series leaves its log as SQLite would have: nothing to copy here.
    if (aside) await aside.stop();
    else if (db.open && mode !== 'once-large') db.pragma('wal_checkpoint(PASSIVE)');
  }
}

/** Pages in the log now; a NOOP checkpoint copies nothing. */
function logPages(db: Db): number {
  return (db.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]?.log ?? 0;
}
