import type { Db } from '../../node-lib/sqlite.js';
import type { LibraryStore } from './store-types.js';

type Runs = LibraryStore['runs'];

export class RunsRepo implements Runs {
  private readonly createStmt;
  private readonly finishStmt;
  private readonly serviceStmt;
  private readonly runningStmt;

  constructor(db: Db) {
    this.createStmt = db.prepare<[Parameters<Runs['create']>[0]]>(`
      INSERT INTO runs (service_url, solution, estimate_frames, budget_frames, started_at)
      VALUES (@serviceUrl, @solution, @estimateFrames, @budgetFrames, @at)`);
    this.finishStmt = db.prepare<[number, string, number | null, number]>(
      'UPDATE runs SET finished_at = ?, status = ?, estimate_frames = coalesce(?, estimate_frames) WHERE id = ?',
    );
    this.serviceStmt = db.prepare<[number], { service_url: string }>(
      'SELECT service_url FROM runs WHERE id = ?',
    );
    this.runningStmt = db.prepare<[number], { id: number }>(
      "SELECT id FROM runs WHERE status = 'running' AND started_at >= ? ORDER BY id",
    );
  }

  create(run: Parameters<Runs['create']>[0]): number {
    return Number(this.createStmt.run(run).lastInsertRowid);
  }

  finish(
    runId: number,
    at: number,
    status: 'done' | 'stopped' | 'failed',
    estimateFrames?: number,
  ): void {
    this.finishStmt.run(at, status, estimateFrames ?? null, runId);
  }

  serviceUrlOf(runId: number): string | undefined {
    return this.serviceStmt.get(runId)?.service_url;
  }

  runningSince(at: number): number[] {
    return this.runningStmt.all(at).map((r) => r.id);
  }
}
