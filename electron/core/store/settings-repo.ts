import type { Db } from '../../node-lib/sqlite.js';
import { StoreError } from './store-error.js';
import type { LibraryStore } from './store-types.js';

// Secrets belong in the keychain; a settings row is plain text on disk and ends up in backups.
const SECRET_KEY = /secret|password|passwd|token|api[-_.]?key|credential/i;

type SettingsApi = LibraryStore['settings'];

export class SettingsRepo implements SettingsApi {
  private readonly getStmt;
  private readonly setStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>(
      'SELECT value FROM settings WHERE key = ?',
    );
    this.setStmt = db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  get(key: string): string | undefined {
    return this.getStmt.get(key)?.value;
  }

  set(key: string, value: string): void {
    if (SECRET_KEY.test(key)) {
      throw new StoreError(
        'secret_in_settings',
        `setting "${key}" looks like a secret; secrets are kept in the system keychain, not in the library database`,
      );
    }
    this.setStmt.run(key, value);
  }
}
