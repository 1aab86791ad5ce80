/** Opening a SQLite file the way every LabelDesk database is opened, and forward-only hashed migrations. */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';

export type Db = Database.Database;

export interface Migration {
  /** 1, 2, 3… with no gaps. */
  version: number;
  name: string;
  sql: string;
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface OpenDatabaseOptions {
  /** Path of a better_sqlite3.node to load instead of the package's own build (see below). */
  nativeBinding?: string | undefined;
}

/**
 * better-sqlite3 is not Node-API: under Electron the process needs a build for Electron's ABI. A
 * host sets it once here and every database this process opens (library, export readers, the
 * embedded service) loads it; the CLI and tests never set it and keep Node's build.
 */
let processNativeBinding: string | undefined;

export function setSqliteNativeBinding(path: string | undefined): void {
  processNativeBinding = path;
}

/** The build set above, for a worker thread that opens the same database (its modules start unset). */
export function sqliteNativeBinding(): string | undefined {
  return processNativeBinding;
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const nativeBinding = options.nativeBinding ?? processNativeBinding;
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  // First: two processes creating one database at once both switch it to WAL, which needs a lock.
  db.pragma('busy_timeout = 5000');
  // SQLite answers BUSY at once, without its busy handler, when the switch to WAL would deadlock
  // with another connection's shared lock: that one case is retried here.
  retryWhileBusy(() => db.pragma('journal_mode = WAL'));
  // NORMAL in WAL mode keeps committed data across a process crash; only an OS crash may lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

const BUSY_RETRIES = 100;

function retryWhileBusy<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= BUSY_RETRIES) throw err;
      // A short synchronous pause (opening a database is synchronous), jittered so racers part.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40);
    }
  }
}

const hashOf = (m: Migration) => createHash('sha256').update(m.sql).digest('hex');

interface AppliedRow {
  version: number;
  name: string;
  hash: string;
}

/** The recorded migrations, checked against this build's; throws on drift. */
function appliedMigrations(db: Db, migrations: readonly Migration[]): AppliedRow[] {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!table) return [];
  const applied = db
    .prepare('SELECT version, name, hash FROM schema_migrations ORDER BY version')
    .all() as AppliedRow[];
  for (const row of applied) {
    const known = migrations[row.version - 1];
    if (!known)
      throw new MigrationError(
        `database has migration ${row.version} (${row.name}), newer than this build`,
      );
    if (known.name !== row.name || hashOf(known) !== row.hash) {
      throw new MigrationError(
        `migration ${row.version} (${row.name}) was edited after it was applied`,
      );
    }
  }
  return applied;
}

/**
 * Applies the migrations not yet recorded. An applied migration whose text changed, or a gap in the
 * numbering, is refused: a database must never drift silently. Two processes may open a new
 * database at once, so the pending ones are applied under BEGIN IMMEDIATE (one writer) after
 * reading the record again inside it; an up-to-date database is only read, never write-locked.
 */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new MigrationError(`migration ${m.name} should be number ${i + 1}`);
  });
  if (appliedMigrations(db, migrations).length === migrations.length) return;
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL
    ) STRICT`);
    const applied = appliedMigrations(db, migrations);
    const record = db.prepare(
      'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
    );
    for (const m of migrations.slice(applied.length)) {
      db.exec(m.sql);
      record.run(m.version, m.name, hashOf(m), Date.now());
    }
  }).immediate();
}
