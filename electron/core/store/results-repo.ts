import type { Db } from '../../node-lib/sqlite.js';
import type { ResultRows } from './library-database-types.js';
import {
  fromRaw,
  must,
  RAW_DETECTION_COLUMNS,
  toResult,
  type RawDetection,
  type ResultDbRow,
} from './row-mappers.js';
import type { DetectionRow, ResultInput, ResultRow } from './store-types.js';

/**
 * One detection row in the column order of the INSERT below, each element named. Bound by
 * position on purpose: the bench measured named binding at half the rows per second on a clip's
 * save (0.38–0.45 of bare SQLite against 0.75–1.00), and this is the hot path of every save.
 */
type InsertArgs = [
  resultId: number,
  frameIndex: number,
  timeMs: number | null,
  label: string,
  classId: number | null,
  score: number | null,
  x: number,
  y: number,
  w: number,
  h: number,
  origin: string,
  review: string,
  /** 1 when `review` is 'rejected' (migration 24). */
  rejected: 0 | 1,
];

/**
 * Results and their detections, written as given. `box_count` is kept on the result (boxes not
 * rejected) so a page of media shows its counts without touching the detections table. A
 * detection's `review` and `origin` mirror the corrected set, which core/review keeps true after
 * every write (a re-analysis lays a person's corrections over the new boxes).
 */
/** Model boxes of the results after one (?), in result id order, at most ? rows (raw arrays). */
export const DETECTIONS_AFTER_SQL = `SELECT ${RAW_DETECTION_COLUMNS} FROM detections
  WHERE result_id > ? ORDER BY result_id, frame_index, id LIMIT ?`;

export class ResultsRepo implements ResultRows {
  private readonly findStmt;
  private readonly findManyStmt;
  private readonly anyStmt;
  private readonly upsertStmt;
  private readonly clearStmt;
  private readonly insertStmt;
  private readonly detectionsStmt;
  private readonly detectionsAfterStmt;
  private readonly ofSolutionStmt;
  private readonly ownerStmt;
  private readonly saveOne;
  private readonly saveTx;
  private readonly saveManyTx;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.findStmt = db.prepare<[string, string], ResultDbRow>(
      'SELECT * FROM results WHERE content_hash = ? AND solution = ?',
    );
    this.anyStmt = db.prepare<[], number>('SELECT 1 FROM results LIMIT 1').pluck();
    this.findManyStmt = db.prepare<[string, string], ResultDbRow>(
      'SELECT * FROM results WHERE solution = ? AND content_hash IN (SELECT value FROM json_each(?))',
    );
    // Replacing keeps the result id, so anything pointing at it stays valid.
    this.upsertStmt = db.prepare<[Record<string, unknown>], ResultDbRow>(`
      INSERT INTO results (content_hash, solution, service_url, analysed_width, analysed_height,
        model, box_count, created_at)
      VALUES (@contentHash, @solution, @serviceUrl, @analysedWidth, @analysedHeight, @model,
        @boxCount, @createdAt)
      ON CONFLICT (content_hash, solution) DO UPDATE SET service_url = excluded.service_url,
        analysed_width = excluded.analysed_width, analysed_height = excluded.analysed_height,
        model = excluded.model, box_count = excluded.box_count, created_at = excluded.created_at
      RETURNING *`);
    this.clearStmt = db.prepare<[number]>('DELETE FROM detections WHERE result_id = ?');
    this.insertStmt = db.prepare<InsertArgs>(`
      INSERT INTO detections (result_id, frame_index, time_ms, label, class_id, score,
        x, y, w, h, origin, review, rejected)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Raw rows: one object per box instead of two (an import reads a million).
    this.detectionsStmt = db
      .prepare<[number], RawDetection>(
        `SELECT ${RAW_DETECTION_COLUMNS} FROM detections WHERE result_id = ? ORDER BY frame_index, id`,
      )
      .raw();
    // In id order over the whole table (no index on the solution): one pass, where a probe of
    // the content index per file cost twice as much (100k: 250 against 580 ms).
    this.ofSolutionStmt = db.prepare<[string, number, number], ResultDbRow>(
      'SELECT * FROM results WHERE solution = ? AND id > ? ORDER BY id LIMIT ?',
    );
    this.detectionsAfterStmt = db
      .prepare<[number, number], RawDetection>(DETECTIONS_AFTER_SQL)
      .raw();
    this.ownerStmt = db.prepare<
      [number],
      { resultId: number; contentHash: string; solution: string }
    >(
      `SELECT d.result_id AS resultId, r.content_hash AS contentHash, r.solution FROM detections d
       JOIN results r ON r.id = d.result_id WHERE d.id = ?`,
    );

    const saveOne = (input: ResultInput): ResultDbRow => {
      let boxCount = 0;
      for (const d of input.detections) if (d.review !== 'rejected') boxCount++;
      const row = must(
        this.upsertStmt.get({
          contentHash: input.contentHash,
          solution: input.solution,
          serviceUrl: input.serviceUrl,
          analysedWidth: input.analysedWidth,
          analysedHeight: input.analysedHeight,
          model: input.model,
          boxCount,
          createdAt: this.now(),
        }),
        `result ${input.contentHash}/${input.solution}`,
      );
      this.clearStmt.run(row.id);
      const insert = this.insertStmt;
      for (const d of input.detections) {
        const b = d.bbox;
        insert.run(
          row.id,
          d.frameIndex,
          d.timeMs,
          d.label,
          d.classId,
          d.score,
          b.x,
          b.y,
          b.w,
          b.h,
          d.origin ?? 'model',
          d.review ?? 'pending',
          d.review === 'rejected' ? 1 : 0,
        );
      }
      return row;
    };
    this.saveOne = saveOne;
    this.saveTx = db.transaction(saveOne);
    // The same writes for every input inside one transaction (no savepoint each): one commit.
    this.saveManyTx = db.transaction((inputs: readonly ResultInput[]) => inputs.map(saveOne));
  }

  find(contentHash: string, solution: string): ResultRow | undefined {
    const r = this.findStmt.get(contentHash, solution);
    return r && toResult(r);
  }

  findMany(contentHashes: readonly string[], solution: string): Map<string, ResultRow> {
    const found = new Map<string, ResultRow>();
    // Nothing labelled yet (a first plan): a thousand index probes per call would find nothing.
    if (this.anyStmt.get() === undefined) return found;
    for (const r of this.findManyStmt.all(solution, JSON.stringify(contentHashes)))
      found.set(r.content_hash, toResult(r));
    return found;
  }

  write(result: ResultInput): ResultRow {
    return toResult(this.saveOne(result));
  }

  save(result: ResultInput): ResultRow {
    return toResult(this.saveTx(result));
  }

  saveMany(results: readonly ResultInput[]): ResultRow[] {
    return this.saveManyTx(results).map(toResult);
  }

  detections(resultId: number): DetectionRow[] {
    return this.detectionsStmt.all(resultId).map(fromRaw);
  }

  ofSolution(solution: string, afterId: number, limit: number): ResultRow[] {
    return this.ofSolutionStmt.all(solution, afterId, limit).map(toResult);
  }

  detectionsAfter(afterResultId: number, limit: number): RawDetection[] {
    return this.detectionsAfterStmt.all(afterResultId, limit);
  }

  ownerOf(
    detectionId: number,
  ): { resultId: number; contentHash: string; solution: string } | undefined {
    return this.ownerStmt.get(detectionId);
  }
}
