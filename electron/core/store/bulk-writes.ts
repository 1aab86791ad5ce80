/** Long series of write transactions: the log is copied into the database less often, or aside. */
import type { Db } from '../../node-lib/sqlite.js';
import { startCheckpointAside } from './checkpoint-aside.js';

/** Log pages between automatic checkpoints during bulk writes (SQLite's default is 1000). */
export const BULK_CHECKPOINT_PAGES = 10_000;

export interface BulkWriteOptions {
  /**
   * Copy the log on a thread of its own (checkpoint-aside.ts), never on this connection's
   * commits: for writes that share their thread with a UI (an import).
   */
  checkpointAside?: boolean;
}

export async function bulkWrites<T>(
  db: Db,
  file: string,
  fn: () => Promise<T>,
  options: BulkWriteOptions = {},
): Promise<T> {
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  const aside = options.checkpointAside ? startCheckpointAside(file) : undefined;
  db.pragma(`wal_autocheckpoint = ${aside ? 0 : BULK_CHECKPOINT_PAGES}`);
  try {
    return await fn();
  } finally {
    if (db.open) db.pragma(`wal_autocheckpoint = ${before}`);
    if (aside) await aside.stop();
    else if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
  }
}
