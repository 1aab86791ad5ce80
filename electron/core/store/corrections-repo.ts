/** A person's corrections, one row per touched or drawn box; each write is its own transaction. */
import type { Db } from '../../node-lib/sqlite.js';
import { params, VALUES, PERSON_OWNS, type Params } from './correction-params.js';
import { correctionsBulkWriter, writeManyWith } from './corrections-bulk-writer.js';
import type { ReviewMirror } from './review-mirror.js';
import { must } from './row-mappers.js';
import { StoreError } from './store-error.js';
import type {
  CorrectionInput,
  CorrectionRow,
  CorrectionsBulkWriter,
  FreshContents,
  LibraryStore,
  MergeCorrection,
  ReviewState,
} from './store-types.js';

const anchorOf = (
  label: string | null,
  score: number | null,
  x: number | null,
  y: number | null,
  w: number | null,
  h: number | null,
): CorrectionRow['anchor'] =>
  label === null
    ? null
    : { label, score: score ?? 0, bbox: { x: x ?? 0, y: y ?? 0, w: w ?? 0, h: h ?? 0 } };

const boxOf = (x: number | null, y: number | null, w: number | null, h: number | null) =>
  x === null ? null : { x, y: y ?? 0, w: w ?? 0, h: h ?? 0 };

/**
 * Only what the merge reads, as arrays (`.raw()`): an export reads a correction per touched box,
 * and a row as an object of 20 named columns cost more than the whole merge (measured on 420k).
 */
export const MERGE_CORRECTION_COLUMNS = `id, frame_index, time_ms, anchor_label, anchor_score,
  anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted, track, rule`;

/** The whole row: the merge's columns, then the three it does not read. */
export const CORRECTION_COLUMNS = `${MERGE_CORRECTION_COLUMNS}, content_hash, solution, updated_at`;

/** A row of `MERGE_CORRECTION_COLUMNS` as an array (`.raw()`), in that order. */
export type RawMergeCorrection = [
  number,
  number,
  number | null,
  string | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  string | null,
  number | null,
  number | null,
  number | null,
  number | null,
  ReviewState,
  number,
  number | null,
  string | null,
];

/** A row of `CORRECTION_COLUMNS` as an array (`.raw()`), in that order. */
export type RawCorrection = [...RawMergeCorrection, string, string, number];

/** A correction as the merge reads it, from a row of `MERGE_CORRECTION_COLUMNS`. */
export const toMergeCorrection = (r: RawMergeCorrection): MergeCorrection => ({
  id: r[0],
  frameIndex: r[1],
  timeMs: r[2],
  anchor: anchorOf(r[3], r[4], r[5], r[6], r[7], r[8]),
  label: r[9],
  bbox: boxOf(r[10], r[11], r[12], r[13]),
  review: r[14],
  deleted: r[15] === 1,
  track: r[16],
  rule: r[17],
});

/**
 * A correction from its row, read as an array (`.raw()`): the same row read as an object of 21
 * named columns cost 90 µs a file, the most of an import that finds its labels already there.
 * Built whole rather than spread from `toMergeCorrection` (an object more per row, on that path).
 */
export const fromRawCorrection = (r: RawCorrection): CorrectionRow => ({
  id: r[0],
  frameIndex: r[1],
  timeMs: r[2],
  anchor: anchorOf(r[3], r[4], r[5], r[6], r[7], r[8]),
  label: r[9],
  bbox: boxOf(r[10], r[11], r[12], r[13]),
  review: r[14],
  deleted: r[15] === 1,
  track: r[16],
  rule: r[17],
  contentHash: r[18],
  solution: r[19],
  updatedAt: r[20],
});

export class CorrectionsRepo implements Readonly<LibraryStore['corrections']> {
  private readonly forContentStmt;
  private readonly byIdStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly putTx;
  private readonly putManyTx;
  private readonly writeManyTx;
  readonly bulkWriter: () => CorrectionsBulkWriter;

  constructor(
    db: Db,
    private readonly now: () => number,
    mirrors: ReviewMirror,
  ) {
    const { mirror } = mirrors;
    this.forContentStmt = db
      .prepare<[string, string], RawCorrection>(
        `SELECT ${CORRECTION_COLUMNS} FROM corrections WHERE content_hash = ? AND solution = ?
         ORDER BY frame_index, id`,
      )
      .raw();
    this.byIdStmt = db
      .prepare<[number], RawCorrection>(
        `SELECT ${CORRECTION_COLUMNS} FROM corrections WHERE id = ?`,
      )
      .raw();
    this.insertStmt = db
      .prepare<[Params], RawCorrection>(
        `INSERT INTO corrections (content_hash, solution, frame_index, time_ms, anchor_label,
        anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted,
        track, updated_at) VALUES (${VALUES}) RETURNING ${CORRECTION_COLUMNS}`,
      )
      .raw();
    // The content and solution never change: a correction belongs to one content for good.
    this.updateStmt = db
      .prepare<[Params & { id: number }], RawCorrection>(
        `UPDATE corrections SET frame_index = @frameIndex, time_ms = @timeMs,
        anchor_label = @anchorLabel, anchor_score = @anchorScore, anchor_x = @anchorX,
        anchor_y = @anchorY, anchor_w = @anchorW, anchor_h = @anchorH, label = @label, x = @x,
        y = @y, w = @w, h = @h, review = @review, deleted = @deleted, track = @track,
        updated_at = @updatedAt, ${PERSON_OWNS}
       WHERE id = @id AND content_hash = @contentHash AND solution = @solution
       RETURNING ${CORRECTION_COLUMNS}`,
      )
      .raw();
    const putOne = (c: CorrectionInput): CorrectionRow => {
      const p = params(c, this.now());
      if (c.id === undefined) return fromRawCorrection(must(this.insertStmt.get(p), 'correction'));
      const row = this.updateStmt.get({ ...p, id: c.id });
      if (!row) {
        throw new StoreError(
          'not_found',
          `correction ${c.id} does not exist for this content and solution`,
        );
      }
      return fromRawCorrection(row);
    };
    // The library view's counts follow in the same transaction.
    this.putTx = db.transaction((c: CorrectionInput) => {
      const row = putOne(c);
      mirror(row.contentHash, row.solution);
      return row;
    });
    // Bulk writers (an import) read nothing back: plain runs, the mirror set-based at the end.
    this.bulkWriter = correctionsBulkWriter(db, now, mirrors);
    this.writeManyTx = writeManyWith(db, this.bulkWriter);
    this.putManyTx = db.transaction((cs: readonly CorrectionInput[]) => {
      const rows = cs.map(putOne);
      const contents = new Map(rows.map((r) => [`${r.solution}\u0000${r.contentHash}`, r]));
      for (const r of contents.values()) mirror(r.contentHash, r.solution);
      return rows;
    });
  }

  writeMany(corrections: readonly CorrectionInput[], fresh?: FreshContents): number {
    return corrections.length ? this.writeManyTx(corrections, fresh) : 0;
  }

  forContent(contentHash: string, solution: string): CorrectionRow[] {
    return this.forContentStmt.all(contentHash, solution).map(fromRawCorrection);
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
