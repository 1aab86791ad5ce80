import type { Db } from '../../node-lib/sqlite.js';
import {
  must,
  toDetection,
  toResult,
  type DetectionDbRow,
  type ResultDbRow,
} from './row-mappers.js';
import { StoreError } from './store-error.js';
import type {
  DetectionRow,
  LibraryStore,
  ResultInput,
  ResultRow,
  ReviewState,
} from './store-types.js';

type InsertArgs = [
  number,
  number,
  number | null,
  string,
  number | null,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string,
  string,
];

type ResultsApi = LibraryStore['results'];

/**
 * Results and their detections. `box_count` is kept on the result (boxes not rejected) so a page
 * of media shows its counts without touching the detections table.
 */
export class ResultsRepo implements ResultsApi {
  private readonly findStmt;
  private readonly upsertStmt;
  private readonly clearStmt;
  private readonly insertStmt;
  private readonly detectionsStmt;
  private readonly reviewStmt;
  private readonly recountStmt;
  private readonly saveTx;
  private readonly saveManyTx;
  private readonly reviewTx;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.findStmt = db.prepare<[string, string], ResultDbRow>(
      'SELECT * FROM results WHERE content_hash = ? AND solution = ?',
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
    // Positional parameters: the hot path of a save, measurably faster than named ones.
    this.insertStmt = db.prepare<InsertArgs>(`
      INSERT INTO detections (result_id, frame_index, time_ms, label, class_id, score,
        x, y, w, h, px, py, pw, ph, origin, review)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.detectionsStmt = db.prepare<[number], DetectionDbRow>(
      'SELECT * FROM detections WHERE result_id = ? ORDER BY frame_index, id',
    );
    this.reviewStmt = db.prepare<[ReviewState, number], { result_id: number }>(
      'UPDATE detections SET review = ? WHERE id = ? RETURNING result_id',
    );
    this.recountStmt = db.prepare<[number, number]>(`UPDATE results SET box_count =
      (SELECT count(*) FROM detections WHERE result_id = ? AND review != 'rejected') WHERE id = ?`);

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
        const p = d.bboxPx;
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
          p.x,
          p.y,
          p.w,
          p.h,
          d.origin ?? 'model',
          d.review ?? 'pending',
        );
      }
      return row;
    };
    this.saveTx = db.transaction(saveOne);
    // The same writes for every input inside one transaction (no savepoint each): one commit.
    this.saveManyTx = db.transaction((inputs: readonly ResultInput[]) => inputs.map(saveOne));
    this.reviewTx = db.transaction((detectionId: number, review: ReviewState) => {
      const hit = this.reviewStmt.get(review, detectionId);
      if (!hit) throw new StoreError('not_found', `detection ${detectionId} does not exist`);
      this.recountStmt.run(hit.result_id, hit.result_id);
    });
  }

  find(contentHash: string, solution: string): ResultRow | undefined {
    const r = this.findStmt.get(contentHash, solution);
    return r && toResult(r);
  }

  save(result: ResultInput): ResultRow {
    return toResult(this.saveTx(result));
  }

  saveMany(results: readonly ResultInput[]): ResultRow[] {
    return this.saveManyTx(results).map(toResult);
  }

  detections(resultId: number): DetectionRow[] {
    return this.detectionsStmt.all(resultId).map(toDetection);
  }

  /** Rejecting a box takes it out of the result's box count; accepting one puts it back. */
  setReview(detectionId: number, review: ReviewState): void {
    this.reviewTx(detectionId, review);
  }
}
