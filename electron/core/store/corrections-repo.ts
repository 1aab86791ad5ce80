/** A person's corrections, one row per touched or drawn box: written as given, nothing more. */
import type { Db } from '../../node-lib/sqlite.js';
import {
  params,
  VALUES,
  PERSON_OWNS,
  KEEP_COCO,
  INSERT_COLUMNS,
  type Params,
} from './correction-params.js';
import {
  CORRECTION_COLUMNS,
  CORRECTION_ORDER,
  fromRawCorrection,
  type RawCorrection,
} from './correction-rows.js';
import { correctionsBulkWriter } from './corrections-bulk-writer.js';
import { contentIdOf, contentNumbers } from './content-numbers.js';
import { must } from './row-mappers.js';
import { StoreError } from './store-error.js';
import type { CorrectionRows, RawCorrectionsWriter } from './library-database-types.js';
import type { ContentsAmong, CorrectionInput, CorrectionRow } from './store-types.js';

export class CorrectionsRepo implements CorrectionRows {
  private readonly forContentStmt;
  private readonly contentsAmongStmt;
  private readonly byIdStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly putTx;
  private readonly putManyTx;
  readonly bulkWriter: () => RawCorrectionsWriter;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.forContentStmt = db
      .prepare<[string, string], RawCorrection>(
        `SELECT ${CORRECTION_COLUMNS} FROM corrections
         WHERE content_id = ${contentIdOf('?')} AND solution = ? ORDER BY ${CORRECTION_ORDER}`,
      )
      .raw();
    // From the listed hashes to the content index, one probe each, and on to the index of
    // corrections by content. No guard of "any correction of the solution": with none of it but
    // many of another solution, that term scans the whole table (no index on the solution
    // alone), once per page of an import.
    this.contentsAmongStmt = db
      .prepare<{ hashes: string; solution: string }, [string, number, 0 | 1]>(
        `SELECT n.hash, n.id, EXISTS (SELECT 1 FROM corrections c
                                      WHERE c.content_id = n.id AND c.solution = @solution)
         FROM json_each(@hashes) j CROSS JOIN contents n ON n.hash = j.value`,
      )
      .raw();
    this.byIdStmt = db
      .prepare<[number], RawCorrection>(
        `SELECT ${CORRECTION_COLUMNS} FROM corrections WHERE id = ?`,
      )
      .raw();
    this.insertStmt = db
      .prepare<[Params & { contentId: number }], RawCorrection>(
        `INSERT INTO corrections (${INSERT_COLUMNS}) VALUES (${VALUES}) RETURNING ${CORRECTION_COLUMNS}`,
      )
      .raw();
    // The content and solution never change: a correction belongs to one content for good.
    this.updateStmt = db
      .prepare<[Params & { id: number }], RawCorrection>(
        `UPDATE corrections SET frame_index = @frameIndex, keyframe = @keyframe, time_ms = @timeMs,
        anchor_label = @anchorLabel, anchor_score = @anchorScore, anchor_x = @anchorX,
        anchor_y = @anchorY, anchor_w = @anchorW, anchor_h = @anchorH, label = @label, x = @x,
        y = @y, w = @w, h = @h, review = @review, deleted = @deleted, track = @track,
        updated_at = @updatedAt, ${PERSON_OWNS}, ${KEEP_COCO}
       WHERE id = @id AND content_hash = @contentHash AND solution = @solution
       RETURNING ${CORRECTION_COLUMNS}`,
      )
      .raw();
    const numberOf = contentNumbers(db);
    const putOne = (c: CorrectionInput): CorrectionRow => {
      const p = params(c, this.now());
      if (c.id === undefined) {
        const row = this.insertStmt.get({ ...p, contentId: numberOf(c.contentHash) });
        return fromRawCorrection(must(row, 'correction'));
      }
      const row = this.updateStmt.get({ ...p, id: c.id });
      if (!row) {
        throw new StoreError(
          'not_found',
          `correction ${c.id} does not exist for this content and solution`,
        );
      }
      return fromRawCorrection(row);
    };
    this.putTx = db.transaction(putOne);
    this.putManyTx = db.transaction((cs: readonly CorrectionInput[]) => cs.map(putOne));
    // Bulk writers (an import) read nothing back: plain multi-row runs.
    this.bulkWriter = correctionsBulkWriter(db, now);
  }

  forContent(contentHash: string, solution: string): CorrectionRow[] {
    return this.forContentStmt.all(contentHash, solution).map(fromRawCorrection);
  }

  contentsAmong(contentHashes: readonly string[], solution: string): ContentsAmong {
    const numbers = new Map<string, number>();
    const corrected = new Set<string>();
    const hashes = JSON.stringify(contentHashes);
    for (const [hash, id, any] of this.contentsAmongStmt.all({ hashes, solution })) {
      numbers.set(hash, id);
      if (any) corrected.add(hash);
    }
    return { numbers, corrected };
  }

  byId(id: number): CorrectionRow | undefined {
    const r = this.byIdStmt.get(id);
    return r && fromRawCorrection(r);
  }

  put(correction: CorrectionInput): CorrectionRow {
    return this.putTx(correction);
  }

  putMany(corrections: readonly CorrectionInput[]): CorrectionRow[] {
    return this.putManyTx(corrections);
  }
}
