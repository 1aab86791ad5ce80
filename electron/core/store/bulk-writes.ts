/** Long series of write transactions: the log is copied into the database less often. */
import type { Db } from '../../node-lib/sqlite.js';

/** Log pages between automatic checkpoints during bulk writes (SQLite's default is 1000). */
export const BULK_CHECKPOINT_PAGES = 10_000;

export async function bulkWrites<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`);
  try {
    return await fn();
  } finally {
    if (db.open) {
      db.pragma(`wal_autocheckpoint = ${before}`);
      db.pragma('wal_checkpoint(PASSIVE)');
    }
  }
}
