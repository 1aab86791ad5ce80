/** Opening a SQLite file the way every LabelDesk database is opened, and forward-only hashed migrations. */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { takeWriteTurns, type WriteTurns } from './sqlite-write-turns.js';

export type Db = Database.Database;

export interface Migration {
  /** 1, 2, 3… with no gaps. */
  version: number;
  name: string;
  sql: string;
}

/**
 * The schema that migrations 1…`through` leave in an empty database, as SQLite stores it, so a new
 * database is made in one step instead of replaying every migration (the replay costs ~55 ms, most
 * of it in ALTER TABLE … DROP COLUMN, which re-checks the whole schema each time). Used only when it
 * was made from exactly these migrations (`fingerprint`); a test checks both paths give one schema.
 */
export interface MigrationBaseline {
  through: number;
  /** `migrationsFingerprint` of migrations 1…through. */
  fingerprint: string;
  sql: string;
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface OpenDatabaseOptions {
  /** Path of a better_sqlite3.node to load instead of the package's own build (see below). */
  nativeBinding?: string | undefined;
  /** Whether and how its writes take turns with a bulk writer's thread (write-turns.ts). */
  writeTurns?: WriteTurns | undefined;
  /** With announced turns: called at the start of each, before the write. */
  onWriteTurn?: ((db: Db) => void) | undefined;
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
  const { onWriteTurn } = options;
  if (options.writeTurns)
    takeWriteTurns(db, options.writeTurns, onWriteTurn && (() => onWriteTurn(db)));
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

/** One hash naming a list of migrations: their versions, names and texts. */
export function migrationsFingerprint(migrations: readonly Migration[]): string {
  const all = createHash('sha256');
  for (const m of migrations) all.update(`${m.version}\0${m.name}\0${hashOf(m)}\n`);
  return all.digest('hex');
}

/** The schema of a database as SQLite stores it, in creation order: what a baseline holds. */
export function schemaSql(db: Db): string {
  const rows = db
    .prepare<[], { sql: string }>(
      `SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
         AND name <> 'schema_migrations' ORDER BY rowid`,
    )
    .all();
  return rows.map((r) => `${r.sql};`).join('\n');
}

function usableBaseline(
  db: Db,
  migrations: readonly Migration[],
  baseline: MigrationBaseline | undefined,
): MigrationBaseline | undefined {
  if (!baseline || baseline.through > migrations.length) return undefined;
  if (migrationsFingerprint(migrations.slice(0, baseline.through)) !== baseline.fingerprint)
    return undefined;
  // Only a database with nothing in it yet: anything else goes step by step.
  const other = db
    .prepare(
      "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' LIMIT 1",
    )
    .get();
  return other ? undefined : baseline;
}

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
export function migrate(
  db: Db,
  migrations: readonly Migration[],
  baseline?: MigrationBaseline,
): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new MigrationError(`migration ${m.name} should be number ${i + 1}`);
  });
  if (appliedMigrations(db, migrations).length === migrations.length) return;
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL
    ) STRICT`);
    let applied = appliedMigrations(db, migrations).length;
    const record = db.prepare(
      'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
    );
    const base = applied === 0 ? usableBaseline(db, migrations, baseline) : undefined;
    if (base) {
      db.exec(base.sql);
      for (const m of migrations.slice(0, base.through))
        record.run(m.version, m.name, hashOf(m), Date.now());
      applied = base.through;
    }
    for (const m of migrations.slice(applied)) {
      db.exec(m.sql);
      record.run(m.version, m.name, hashOf(m), Date.now());
    }
  }).immediate();
}
