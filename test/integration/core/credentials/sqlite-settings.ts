// A real settings file for the keychain tests, shaped like LibraryStore.settings, so the "key is
// on no disk" check also covers SQLite and its WAL. Also compiled for the child processes.
import Database from 'better-sqlite3';
import path from 'node:path';

export interface SqliteSettings {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  close(): void;
}

export function openSqliteSettings(home: string): SqliteSettings {
  const db = new Database(path.join(home, 'library.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
  const select = db.prepare<[string], { value: string }>(
    'SELECT value FROM settings WHERE key = ?',
  );
  const upsert = db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: (key) => select.get(key)?.value,
    set: (key, value) => void upsert.run(key, value),
    close: () => db.close(),
  };
}
