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

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const nativeBinding = options.nativeBinding ?? processNativeBinding;
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode keeps committed data across a process crash; only an OS crash may lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

const hashOf = (m: Migration) => createHash('sha256').update(m.sql).digest('hex');

/**
 * Applies the migrations not yet recorded, each in its own transaction. An applied migration whose
 * text changed, or a gap in the numbering, is refused: a database must never drift silently.
 */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new MigrationError(`migration ${m.name} should be number ${i + 1}`);
  });
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL
  ) STRICT`);
  const applied = db
    .prepare('SELECT version, name, hash FROM schema_migrations ORDER BY version')
    .all() as { version: number; name: string; hash: string }[];
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
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
  );
  for (const m of migrations.slice(applied.length)) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, hashOf(m), Date.now());
    })();
  }
}
