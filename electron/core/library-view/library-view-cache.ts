/** Answers of the heavier queries, valid while the database has not changed (data_version). */
import type { Db } from '../../node-lib/sqlite.js';

export class DataVersionCache {
  private readonly version;
  private cache = new Map<string, unknown>();
  private cachedAt = -1;

  constructor(db: Db) {
    this.version = db.prepare('PRAGMA data_version').pluck();
  }

  /** The cached answer for `key` if no connection has committed since; else computes it. */
  get<T>(key: string, compute: () => T): T {
    const version = this.version.get() as number;
    if (version !== this.cachedAt) {
      this.cache = new Map();
      this.cachedAt = version;
    }
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const value = compute();
    this.cache.set(key, value);
    return value;
  }
}
