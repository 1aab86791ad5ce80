import type { Db } from '../../node-lib/sqlite.js';
import type { LedgerEntry, LibraryStore } from './store-types.js';

type LedgerApi = LibraryStore['ledger'];

/** One row per call that spent or refunded frames; the hour bucket is derived from `at` in SQL. */
export class LedgerRepo implements LedgerApi {
  private readonly recordStmt;
  private readonly sinceStmt;

  constructor(db: Db) {
    this.recordStmt = db.prepare<[LedgerEntry]>(`
      INSERT INTO frames_ledger (service_url, submission_id, frames, at)
      VALUES (@serviceUrl, @submissionId, @frames, @at)`);
    this.sinceStmt = db.prepare<[string, number], { n: number }>(
      'SELECT coalesce(sum(frames), 0) AS n FROM frames_ledger WHERE service_url = ? AND at >= ?',
    );
  }

  record(entry: LedgerEntry): void {
    this.recordStmt.run(entry);
  }

  spentSince(serviceUrl: string, since: number): number {
    return this.sinceStmt.get(serviceUrl, since)?.n ?? 0;
  }
}
