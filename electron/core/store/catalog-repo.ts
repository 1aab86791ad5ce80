import type { Db } from '../../node-lib/sqlite.js';
import type { LibraryStore } from './store-types.js';

interface Snapshot {
  version: string;
  body: string;
  at: number;
}

type CatalogApi = LibraryStore['catalog'];

/** The last catalog seen per service: what an offline start plans against. */
export class CatalogRepo implements CatalogApi {
  private readonly insertStmt;
  private readonly latestStmt;
  private readonly touchStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, string, number]>(
      'INSERT INTO catalog_snapshots (service_url, version, body, at) VALUES (?, ?, ?, ?)',
    );
    this.latestStmt = db.prepare<[string], Snapshot & { id: number }>(`
      SELECT id, version, body, at FROM catalog_snapshots WHERE service_url = ?
      ORDER BY at DESC, id DESC LIMIT 1`);
    this.touchStmt = db.prepare<[number, number]>(
      'UPDATE catalog_snapshots SET at = ? WHERE id = ?',
    );
  }

  /** An unchanged catalog only refreshes its time: fetching it every start must not grow the file. */
  saveSnapshot(serviceUrl: string, version: string, body: string, at: number): void {
    const last = this.latestStmt.get(serviceUrl);
    if (last && last.version === version && last.body === body && at >= last.at) {
      this.touchStmt.run(at, last.id);
    } else {
      this.insertStmt.run(serviceUrl, version, body, at);
    }
  }

  latest(serviceUrl: string): Snapshot | undefined {
    const r = this.latestStmt.get(serviceUrl);
    return r && { version: r.version, body: r.body, at: r.at };
  }
}
