/**
 * Auto-accept batches (migration 8): one batch is one undoable step. The boxes it accepted carry
 * its rule and id; undo deletes the rows the batch created and gives the rows it updated their
 * pending state and earlier time back, leaving alone any row a person has written since (that
 * write cleared the batch id, see corrections-repo.ts). Rows only, in the caller's transaction:
 * the corrected set (core/review) mirrors the contents a batch touched.
 */
import type { Db } from '../../node-lib/sqlite.js';
import { contentNumbers } from './content-numbers.js';
import type { RuleBatchRows } from './library-database-types.js';
import type { RuleAcceptance } from './store-types.js';

/** Contents with a result of the solution and no reviewed file, with how many files show them. */
const UNREVIEWED_SQL = `
  SELECT r.id AS resultId, r.content_hash AS contentHash, count(m.id) AS files
  FROM results r JOIN media m ON m.content_hash = r.content_hash AND m.status = 'present'
  WHERE r.solution = @solution AND NOT EXISTS (
    SELECT 1 FROM reviewed_media v JOIN media rm ON rm.id = v.media_id
      AND rm.content_hash = v.content_hash
    WHERE v.solution = r.solution AND rm.content_hash = r.content_hash)
  GROUP BY r.id ORDER BY min(m.path)`;

export class RuleBatchesRepo implements Readonly<RuleBatchRows> {
  private readonly unreviewedStmt;
  private readonly applyRows;
  private readonly undoRows;
  private readonly latestStmt;

  constructor(db: Db, now: () => number) {
    this.unreviewedStmt = db.prepare<
      [{ solution: string }],
      { resultId: number; contentHash: string; files: number }
    >(UNREVIEWED_SQL);
    const batch = db.prepare<[string, number, number, number, number], { id: number }>(
      `INSERT INTO rule_batches (solution, target, boxes, files, created_at) VALUES (?, ?, ?, ?, ?)
       RETURNING id`,
    );
    const insert = db.prepare(
      `INSERT INTO corrections (content_hash, solution, frame_index, time_ms, anchor_label,
        anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, review, deleted, updated_at, rule,
        rule_batch, content_id)
       VALUES (@contentHash, @solution, @frameIndex, @timeMs, @label, @score, @x, @y, @w, @h,
        'accepted', 0, @at, @rule, @batch, @contentId)`,
    );
    // Only a row still pending and nobody's rule: what the plan saw (one snapshot, one transaction).
    const numberOf = contentNumbers(db);
    const update = db.prepare<[{ id: number; at: number; rule: string; batch: number }]>(
      `UPDATE corrections SET review = 'accepted', rule = @rule, rule_batch = @batch,
        rule_prior_at = updated_at, updated_at = @at
       WHERE id = @id AND review = 'pending' AND deleted = 0 AND rule_batch IS NULL`,
    );
    this.applyRows = (
      solution: string,
      target: number,
      files: number,
      contents: readonly RuleAcceptance[],
    ) => {
      const at = now();
      const total = contents.reduce((n, c) => n + c.boxes.length, 0);
      const id = (batch.get(solution, target, total, files, at) as { id: number }).id;
      for (const c of contents) {
        let contentId: number | undefined;
        for (const box of c.boxes) {
          const rule = box.rule;
          if (box.correctionId !== null) {
            update.run({ id: box.correctionId, at, rule, batch: id });
            continue;
          }
          const m = box.model;
          contentId ??= numberOf(c.contentHash);
          insert.run({
            contentHash: c.contentHash,
            contentId,
            solution,
            frameIndex: box.frameIndex,
            timeMs: box.timeMs,
            label: m.label,
            score: m.score,
            ...m.bbox,
            at,
            rule,
            batch: id,
          });
        }
      }
      return id;
    };
    const contentsOf = db
      .prepare<[number], string>(
        'SELECT DISTINCT content_hash FROM corrections WHERE rule_batch = ?',
      )
      .pluck();
    const batchRow = db.prepare<[number], { solution: string; undone_at: number | null }>(
      'SELECT solution, undone_at FROM rule_batches WHERE id = ?',
    );
    const drop = db.prepare<[number]>(
      'DELETE FROM corrections WHERE rule_batch = ? AND rule_prior_at IS NULL',
    );
    const restore = db.prepare<[number]>(
      `UPDATE corrections SET review = 'pending', updated_at = rule_prior_at, rule = NULL,
        rule_batch = NULL, rule_prior_at = NULL WHERE rule_batch = ?`,
    );
    const undone = db.prepare<[number, number]>(
      'UPDATE rule_batches SET undone_at = ? WHERE id = ?',
    );
    // The mirror reads a box with no correction as its detection row says: a row the batch
    // created and undo deleted would otherwise stay "accepted" there. Start from the model's own
    // state; the corrected set then lays the remaining corrections over it.
    const resetBoxes = db.prepare<[string, string]>(
      `UPDATE detections SET review = 'pending', origin = 'model', rejected = 0 WHERE result_id =
        (SELECT id FROM results WHERE content_hash = ? AND solution = ?)`,
    );
    const resetCount = db.prepare<[string, string]>(
      `UPDATE results SET box_count = (SELECT count(*) FROM detections d WHERE d.result_id = results.id)
       WHERE content_hash = ? AND solution = ?`,
    );
    this.undoRows = (id: number): ReturnType<RuleBatchRows['undo']> => {
      const b = batchRow.get(id);
      if (!b || b.undone_at !== null) return null;
      const contents = contentsOf.all(id);
      const boxes = drop.run(id).changes + restore.run(id).changes;
      undone.run(now(), id);
      for (const c of contents) {
        resetBoxes.run(c, b.solution);
        resetCount.run(c, b.solution);
      }
      return { boxes, solution: b.solution, contents };
    };
    this.latestStmt = db.prepare<[string], { id: number; boxes: number; files: number }>(
      `SELECT id, boxes, files FROM rule_batches WHERE solution = ? AND undone_at IS NULL
       ORDER BY id DESC LIMIT 1`,
    );
  }

  unreviewed(solution: string): { resultId: number; contentHash: string; files: number }[] {
    return this.unreviewedStmt.all({ solution });
  }

  apply(
    solution: string,
    target: number,
    files: number,
    contents: readonly RuleAcceptance[],
  ): number {
    return this.applyRows(solution, target, files, contents);
  }

  undo(batchId: number): ReturnType<RuleBatchRows['undo']> {
    return this.undoRows(batchId);
  }

  latest(solution: string): { id: number; boxes: number; files: number } | undefined {
    return this.latestStmt.get(solution);
  }
}
