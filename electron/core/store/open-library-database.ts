/**
 * The library database: open, migrate, and hand out the repositories, which persist the rows they
 * are given. The library as the rest of the app uses it (`openLibraryStore`, core/review) lays the
 * corrected set over these.
 */
import { migrate, openDatabase, type Db } from '../../node-lib/sqlite.js';
import { writersWaiting } from '../../node-lib/write-turns.js';
import { bulkWrites, followCopiesAside } from './bulk-writes.js';
import { CatalogRepo } from './catalog-repo.js';
import { CorrectionsRepo } from './corrections-repo.js';
import { exportItems } from './export-items.js';
import { FoldersRepo } from './folders-repo.js';
import { LearntCostsRepo } from './learnt-costs-repo.js';
import { LedgerRepo } from './ledger-repo.js';
import type { LibraryDatabase } from './library-database-types.js';
import { MediaRepo } from './media-repo.js';
import { mirrorWrites } from './mirror-writes.js';
import { RawAnswersRepo } from './raw-answers-repo.js';
import { LIBRARY_MIGRATIONS } from './migrations.js';
import { LIBRARY_BASELINE } from './migrations-baseline.js';
import { ResultsRepo } from './results-repo.js';
import { ReviewedRepo } from './reviewed-repo.js';
import { ReviewPriorityRepo } from './review-priority-repo.js';
import { RuleBatchesRepo } from './rule-batches-repo.js';
import { RunsRepo } from './runs-repo.js';
import { cocoIdsRepo } from './coco-ids-repo.js';
import { SettingsRepo } from './settings-repo.js';
import { isDamagedDatabase, LibraryDamagedError } from './store-error.js';
import { SubmissionsRepo } from './submissions-repo.js';
import { teamRepo } from './team-repo.js';
import { teamTriggers } from './team-triggers.js';

export interface LibraryStoreOptions {
  /** Clock for the times the store stamps itself (added, updated, created); tests pin it. */
  now?: () => number;
  /** A better_sqlite3.node built for another ABI (Electron's); see `setSqliteNativeBinding`. */
  nativeBinding?: string;
  /**
   * The connection of a bulk writer on a thread of its own (an import): its transactions wait
   * for the writes people wait for, which every other connection announces (write-turns.ts).
   */
  bulk?: boolean;
}

export function openLibraryDatabase(
  file: string,
  options: LibraryStoreOptions = {},
): LibraryDatabase {
  const now = options.now ?? Date.now;
  let db: Db;
  try {
    db = openDatabase(file, {
      nativeBinding: options.nativeBinding,
      writeTurns: options.bulk ? 'bulk' : 'announced',
      onWriteTurn: options.bulk ? undefined : followCopiesAside,
    });
  } catch (err) {
    throw isDamagedDatabase(err) ? new LibraryDamagedError(file, err) : err;
  }
  try {
    migrate(db, LIBRARY_MIGRATIONS, LIBRARY_BASELINE);
    teamTriggers(db).sync();
  } catch (err) {
    db.close();
    throw isDamagedDatabase(err) ? new LibraryDamagedError(file, err) : err;
  }
  // A page cache that can hold the media indexes of a large library (SQLite's default is 2 MiB),
  // so a transaction of many updates need not spill index pages to the WAL before it commits.
  db.pragma('cache_size = -32768');
  const readers = new Set<Db>();
  const integrity = db.prepare<[], { integrity_check: string }>('PRAGMA integrity_check');
  // One wrapper for every transaction: better-sqlite3 builds four functions and their properties
  // per `db.transaction(fn)` (~25 µs), twice per file of a run. Nesting (a savepoint) is decided
  // at each call, as before.
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  return {
    file,
    close() {
      for (const r of readers) r.close();
      readers.clear();
      if (db.open) db.close();
    },
    integrityCheck() {
      return integrity
        .all()
        .map((r) => r.integrity_check)
        .join('\n');
    },
    transaction: <T>(fn: () => T): T => inTransaction(fn) as T,
    writersWaiting: options.bulk ? writersWaiting : () => false,
    changeMark: () => `${String(dataVersion.get())} ${String(totalChanges.get())}`,
    bulkWrites: (fn, options) => bulkWrites(db, file, fn, options),
    settings: new SettingsRepo(db),
    coco: cocoIdsRepo(db),
    folders: new FoldersRepo(db, now),
    media: new MediaRepo(db),
    results: new ResultsRepo(db, now),
    runs: new RunsRepo(db),
    submissions: new SubmissionsRepo(db, now),
    ledger: new LedgerRepo(db),
    costs: new LearntCostsRepo(db),
    catalog: new CatalogRepo(db),
    corrections: new CorrectionsRepo(db, now),
    rawAnswers: new RawAnswersRepo(db),
    team: teamRepo(db),
    reviewed: new ReviewedRepo(db, now),
    ruleBatches: new RuleBatchesRepo(db, now),
    priority: new ReviewPriorityRepo(db, now),
    mirror: mirrorWrites(db),
    exportItems: (query, boxesOf) => exportItems(file, query, readers, boxesOf),
  };
}
