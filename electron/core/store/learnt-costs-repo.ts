import type { Db } from '../../node-lib/sqlite.js';
import type { CostKind, LearntCosts, LibraryStore } from './store-types.js';

type CostsApi = LibraryStore['costs'];

/** Frame costs learnt per service and solution (see migration 3). */
export class LearntCostsRepo implements CostsApi {
  private readonly getStmt;
  private readonly setStmt;
  private readonly forgetStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string, string], { kind: CostKind; frames: number }>(
      'SELECT kind, frames FROM learnt_costs WHERE service_url = ? AND solution = ?',
    );
    this.setStmt = db.prepare<[string, string, CostKind, number, number]>(`
      INSERT INTO learnt_costs (service_url, solution, kind, frames, learnt_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (service_url, solution, kind)
      DO UPDATE SET frames = excluded.frames, learnt_at = excluded.learnt_at`);
    this.forgetStmt = db.prepare<[string, string]>(
      'DELETE FROM learnt_costs WHERE service_url = ? AND solution = ?',
    );
  }

  get(serviceUrl: string, solution: string): LearntCosts {
    const costs: LearntCosts = { image: null, videoFrame: null };
    for (const row of this.getStmt.all(serviceUrl, solution)) costs[row.kind] = row.frames;
    return costs;
  }

  set(serviceUrl: string, solution: string, kind: CostKind, frames: number, at: number): void {
    this.setStmt.run(serviceUrl, solution, kind, frames, at);
  }

  forget(serviceUrl: string, solution: string): void {
    this.forgetStmt.run(serviceUrl, solution);
  }
}
