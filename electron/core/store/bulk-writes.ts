/** Long series of write transactions: the log is copied into the database less often, or aside. */
import type { Db } from '../../node-lib/sqlite.js';
import { startCheckpointAside } from './checkpoint-aside.js';

/** Log pages between automatic checkpoints during bulk writes (SQLite's default is 1000). */
export const BULK_CHECKPOINT_PAGES = 10_000;

export interface BulkWriteOptions {
  /**
   * Copy the log on a thread of its own (checkpoint-aside.ts), never on this connection's
   * commits: for writes that share their thread with a UI (an import) or with uploads (a run).
   */
  checkpointAside?: boolean;
}

/**
 * The series open on a connection. They may overlap (the app scans while a run sends): the
 * connection's own setting is restored when the last one ends, and its commits never checkpoint
 * while any of them copies aside.
 */
interface Open {
  before: number;
  series: number;
  aside: number;
}
const open = new WeakMap<Db, Open>();

const autocheckpoint = (state: Open) => (state.aside > 0 ? 0 : BULK_CHECKPOINT_PAGES);

export async function bulkWrites<T>(
  db: Db,
  file: string,
  fn: () => Promise<T>,
  options: BulkWriteOptions = {},
): Promise<T> {
  const state = open.get(db) ?? {
    before: db.pragma('wal_autocheckpoint', { simple: true }) as number,
    series: 0,
    aside: 0,
  };
  open.set(db, state);
  const aside = options.checkpointAside ? startCheckpointAside(file) : undefined;
  state.series++;
  if (aside) state.aside++;
  db.pragma(`wal_autocheckpoint = ${autocheckpoint(state)}`);
  try {
    return await fn();
  } finally {
    state.series--;
    if (aside) state.aside--;
    if (state.series === 0) open.delete(db);
    if (db.open)
      db.pragma(
        `wal_autocheckpoint = ${state.series === 0 ? state.before : autocheckpoint(state)}`,
      );
    if (aside) await aside.stop();
    else if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
  }
}
