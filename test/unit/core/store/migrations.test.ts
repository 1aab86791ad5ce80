import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBRARY_MIGRATIONS } from '../../../../electron/core/store/migrations.js';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import { migrate, MigrationError, openDatabase } from '../../../../electron/node-lib/sqlite.js';
import { tempDir } from '../../../support/temp-dir.js';

let tmp: { dir: string; remove: () => Promise<void> };
let file: string;
beforeEach(async () => {
  tmp = await tempDir('labeldesk-migrations-');
  file = join(tmp.dir, 'library.sqlite');
});
afterEach(() => tmp.remove());

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('library migrations', () => {
  it('records each applied migration with the hash of its text, once', () => {
    openLibraryStore(file).close();
    const db = new Database(file);
    const first = db.prepare('SELECT * FROM schema_migrations ORDER BY version').all() as any[];
    db.close();
    expect(first.map((r) => [r.version, r.name, r.hash])).toEqual(
      LIBRARY_MIGRATIONS.map((m) => [m.version, m.name, sha(m.sql)]),
    );

    openLibraryStore(file).close();
    const again = new Database(file);
    expect(again.prepare('SELECT * FROM schema_migrations ORDER BY version').all()).toEqual(first);
    again.close();
  });

  it('creates only STRICT tables, in WAL mode with foreign keys on', () => {
    const store = openLibraryStore(file);
    store.close();
    const db = openDatabase(file);
    const tables = db
      .prepare(
        "SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'",
      )
      .all() as { name: string; strict: number }[];
    const ours = tables.filter((t) => !t.name.startsWith('sqlite_'));
    expect(ours.length).toBeGreaterThanOrEqual(10);
    expect(ours.filter((t) => t.strict !== 1)).toEqual([]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses to open a database whose applied migration was edited afterwards', () => {
    openLibraryStore(file).close();
    const db = openDatabase(file);
    const edited = LIBRARY_MIGRATIONS.map((m, i) =>
      i === 0 ? { ...m, sql: `${m.sql}\nCREATE INDEX sneaky ON media(size);` } : m,
    );
    expect(() => migrate(db, edited)).toThrow(MigrationError);
    expect(() => migrate(db, edited)).toThrow(/migration 1 \(library-core\) was edited/);
    // Nothing of the edited text was applied.
    expect(
      db.prepare("SELECT name FROM sqlite_schema WHERE name = 'sneaky'").get(),
    ).toBeUndefined();
    db.close();

    // The same refusal through the front door, when the recorded hash no longer matches.
    const raw = new Database(file);
    raw.prepare("UPDATE schema_migrations SET hash = 'tampered' WHERE version = 1").run();
    raw.close();
    expect(() => openLibraryStore(file)).toThrow(/was edited after it was applied/);
  });

  it('refuses a database written by a newer build instead of guessing', () => {
    openLibraryStore(file).close();
    const raw = new Database(file);
    raw
      .prepare(
        'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
      )
      .run(LIBRARY_MIGRATIONS.length + 1, 'from-the-future', 'x', 0);
    raw.close();
    expect(() => openLibraryStore(file)).toThrow(/newer than this build/);
  });

  it('drops the stored pixel boxes of a library made before, keeping its boxes', () => {
    const old = openDatabase(file);
    migrate(
      old,
      LIBRARY_MIGRATIONS.slice(
        0,
        LIBRARY_MIGRATIONS.findIndex((m) => m.name === 'drop-detection-pixel-boxes'),
      ),
    );
    old.exec(`INSERT INTO results (id, content_hash, solution, service_url, analysed_width,
      analysed_height, box_count, created_at) VALUES (1, 'h1', 'objects', 'u', 100, 50, 1, 5);
      INSERT INTO detections (result_id, frame_index, label, score, x, y, w, h, px, py, pw, ph)
      VALUES (1, 0, 'cat', 0.9, 0.1, 0.2, 0.3, 0.4, 10, 10, 30, 20)`);
    old.close();

    const store = openLibraryStore(file);
    const [box] = store.results.detections(1);
    store.close();
    expect(box).toMatchObject({ label: 'cat', bbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 } });
    expect(box).not.toHaveProperty('bboxPx');
    const db = openDatabase(file);
    const columns = db.prepare("SELECT name FROM pragma_table_info('detections')").pluck().all();
    db.close();
    expect(columns).not.toEqual(expect.arrayContaining(['px']));
    expect(columns).toEqual(expect.arrayContaining(['x', 'y', 'w', 'h']));
  });
});
