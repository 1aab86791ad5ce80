import type { Db } from '../../node-lib/sqlite.js';
import { mergeCorrections } from '../review/merge-corrections.js';
import { correctionOf } from '../review/review-edits.js';
import type { MirrorFn } from './review-mirror.js';
import {
  fromRaw,
  must,
  RAW_DETECTION_COLUMNS,
  toResult,
  type RawDetection,
  type ResultDbRow,
} from './row-mappers.js';
import { StoreError } from './store-error.js';
import type {
  CorrectionInput,
  CorrectionRow,
  DetectionRow,
  LibraryStore,
  ResultInput,
  ResultRow,
  ReviewState,
} from './store-types.js';

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
  score: number,
  x: number,
  y: number,
  w: number,
  h: number,
  px: number,
  py: number,
  pw: number,
  ph: number,
  origin: string,
  review: string,
];

type ResultsApi = LibraryStore['results'];

/**
 * Results and their detections. `box_count` is kept on the result (boxes not rejected) so a page
 * of media shows its counts without touching the detections table. A detection's `review` and
 * `origin` mirror the corrected set (see review-mirror.ts); a review is stored as a correction.
 */
export class ResultsRepo implements ResultsApi {
  private readonly findStmt;
  private readonly findManyStmt;
  private readonly anyStmt;
  private readonly upsertStmt;
  private readonly clearStmt;
  private readonly insertStmt;
  private readonly detectionsStmt;
  private readonly byIdStmt;
  private readonly saveTx;
  private readonly saveManyTx;

  constructor(
    db: Db,
    private readonly now: () => number,
    mirror: MirrorFn,
    private readonly corrections: {
      forContent(contentHash: string, solution: string): CorrectionRow[];
      put(c: CorrectionInput): CorrectionRow;
    },
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
        x, y, w, h, px, py, pw, ph, origin, review)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Raw rows: one object per box instead of two (an import reads a million).
    this.detectionsStmt = db
      .prepare<[number], RawDetection>(
        `SELECT ${RAW_DETECTION_COLUMNS} FROM detections WHERE result_id = ? ORDER BY frame_index, id`,
      )
      .raw();
    this.byIdStmt = db.prepare<
      [number],
      { result_id: number; content_hash: string; solution: string }
    >(
      `SELECT d.result_id, r.content_hash, r.solution FROM detections d
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
      // Re-analysis: the person's corrections of this content stay, laid over the new boxes.
      if (!mirror(input.contentHash, input.solution)) return row;
      return must(this.findStmt.get(input.contentHash, input.solution), 'result');
    };
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

  save(result: ResultInput): ResultRow {
    return toResult(this.saveTx(result));
  }

  saveMany(results: readonly ResultInput[]): ResultRow[] {
    return this.saveManyTx(results).map(toResult);
  }

  detections(resultId: number): DetectionRow[] {
    return this.detectionsStmt.all(resultId).map(fromRaw);
  }

  /**
   * Rejecting a box takes it out of the result's box count; accepting one puts it back. Stored as
   * the box's correction, so it survives re-analysis.
   */
  setReview(detectionId: number, review: ReviewState): void {
    const hit = this.byIdStmt.get(detectionId);
    if (!hit) throw new StoreError('not_found', `detection ${detectionId} does not exist`);
    const merged = mergeCorrections(
      this.detections(hit.result_id),
      this.corrections.forContent(hit.content_hash, hit.solution),
      { includeDeleted: true },
    );
    const box = merged.find((b) => b.detectionId === detectionId);
    if (!box) throw new StoreError('not_found', `detection ${detectionId} does not exist`);
    this.corrections.put(
      correctionOf({ ...box, review }, { contentHash: hit.content_hash, solution: hit.solution }),
    );
  }
}
