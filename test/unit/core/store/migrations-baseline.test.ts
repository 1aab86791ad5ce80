import { describe, expect, it } from 'vitest';
import { LIBRARY_BASELINE } from '../../../../electron/core/store/migrations-baseline.js';
import { LIBRARY_MIGRATIONS } from '../../../../electron/core/store/migrations.js';
import {
  migrate,
  migrationsFingerprint,
  openDatabase,
  type Db,
  type MigrationBaseline,
} from '../../../../electron/node-lib/sqlite.js';

/** Everything a schema is: every object SQLite stores, every table's rows, the migration record. */
function fullState(db: Db): unknown {
  const objects = db
    .prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')
    .all();
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .all();
  const rows = Object.fromEntries(
    tables.map((t) => [
      t.name,
      t.name === 'schema_migrations'
        ? db.prepare('SELECT version, name, hash FROM schema_migrations ORDER BY version').all()
        : db.prepare(`SELECT * FROM "${t.name}"`).all(),
    ]),
  );
  const columns = Object.fromEntries(
    tables.map((t) => [t.name, db.prepare(`SELECT * FROM pragma_table_xinfo('${t.name}')`).all()]),
  );
  return { objects, rows, columns, userVersion: db.pragma('user_version', { simple: true }) };
}

function made(baseline?: MigrationBaseline, migrations = LIBRARY_MIGRATIONS): Db {
  const db = openDatabase(':memory:');
  migrate(db, migrations, baseline);
  return db;
}

describe('the library baseline (a new library made in one step)', () => {
  it('is the schema that migrations 1…through leave, object for object', () => {
    // Regenerate with `npx tsc -p tsconfig.node.json && node scripts/write-library-baseline.js`.
    expect(LIBRARY_BASELINE.fingerprint).toBe(
      migrationsFingerprint(LIBRARY_MIGRATIONS.slice(0, LIBRARY_BASELINE.through)),
    );
    const stepwise = made();
    const oneStep = made(LIBRARY_BASELINE);
    expect(fullState(oneStep)).toEqual(fullState(stepwise));
  });

  it('replays the migrations appended after it', () => {
    const later = {
      version: LIBRARY_MIGRATIONS.length + 1,
      name: 'later',
      sql: 'CREATE TABLE later_one (id INTEGER PRIMARY KEY) STRICT;',
    };
    const migrations = [...LIBRARY_MIGRATIONS, later];
    expect(fullState(made(LIBRARY_BASELINE, migrations))).toEqual(
      fullState(made(undefined, migrations)),
    );
  });

  it('is not used when the migrations it was made from changed, nor on a database in use', () => {
    const edited = LIBRARY_MIGRATIONS.map((m, i) =>
      i === 2 ? { ...m, sql: `${m.sql}\nCREATE TABLE edited_marker (id INTEGER) STRICT;` } : m,
    );
    const db = made(LIBRARY_BASELINE, edited);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'edited_marker'").get()).toEqual({
      1: 1,
    });

    const inUse = openDatabase(':memory:');
    inUse.exec(
      'CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT, WITHOUT ROWID',
    );
    // Migration 1 creates `settings` too: replayed, it fails; the baseline would have hidden it.
    expect(() => migrate(inUse, LIBRARY_MIGRATIONS, LIBRARY_BASELINE)).toThrow(/already exists/);
  });
});
