/**
 * Corrections written in bulk (an import of 100k files) inside the caller's transaction: each
 * content's rows are inserted as soon as they are planned, so nothing of a file outlives its turn
 * (a batch's worth of rows and model boxes held until the end was promoted by the collector and
 * grew the heap past a gigabyte). Rows only: the corrected set (core/review) mirrors them.
 */
import type { Db } from '../../node-lib/sqlite.js';
import {
  COLUMNS,
  pushInsertValues,
  params,
  PERSON_OWNS,
  KEEP_COCO,
  INSERT_COLUMNS,
  POSITIONS,
  type Params,
} from './correction-params.js';
import { contentNumbers } from './content-numbers.js';
import { StoreError } from './store-error.js';
import type { RawCorrectionsWriter } from './library-database-types.js';

/** Rows per insert statement (SQLite takes up to 32,766 parameters). */
const ROWS = 32;
/** Insert statements kept prepared, by rows and shared columns. */
const MAX_SHAPES = 512;
/** Each column's placeholder in `VALUES`, in `pushInsertValues`' order. */
const PLACES = POSITIONS.split(',').map((place) => place.trim());

export function correctionsBulkWriter(db: Db, now: () => number): () => RawCorrectionsWriter {
  // A content's new rows in one statement of as many rows (up to ROWS): a statement a row cost
  // 0.6 s more CPU over a million rows. A column whose value every row of the statement shares
  // (the content, the solution, the time, nulls and flags) is bound once, by name: a million
  // rows of an import bind 11 values each instead of 23 (0.35 s less CPU).
  type Insert = ReturnType<typeof db.prepare<[unknown[], Record<string, unknown>]>>;
  const inserts = new Map<string, Insert>();
  const insertOf = (rows: number, shared: number) => {
    const key = `${rows} ${shared}`;
    let stmt = inserts.get(key);
    if (!stmt) {
      const row = `(${PLACES.map((place, c) => (shared & (1 << c) ? `@c${c}` : place)).join(', ')})`;
      stmt = db.prepare<[unknown[], Record<string, unknown>]>(
        `INSERT INTO corrections (${INSERT_COLUMNS}) VALUES ${Array(rows).fill(row).join(', ')}`,
      );
      // Shapes are few (an import's rows look alike); a cap keeps odd ones from piling up.
      if (inserts.size < MAX_SHAPES) inserts.set(key, stmt);
    }
    return stmt;
  };
  const insertAll = (values: unknown[], rows: number) => {
    for (let done = 0; done < rows; done += ROWS) {
      const n = Math.min(ROWS, rows - done);
      const from = done * COLUMNS;
      const named: Record<string, unknown> = {};
      let shared = 0;
      if (n > 1) {
        for (let c = 0; c < COLUMNS; c++) {
          const value = values[from + c];
          let same = true;
          for (let r = 1; r < n && same; r++) same = values[from + r * COLUMNS + c] === value;
          if (same) {
            shared |= 1 << c;
            named[`c${c}`] = value;
          }
        }
      }
      const own: unknown[] = [];
      for (let i = from; i < from + n * COLUMNS; i++)
        if (!(shared & (1 << ((i - from) % COLUMNS)))) own.push(values[i]);
      insertOf(n, shared).run(own, named);
    }
  };
  const updateRun = db.prepare<[Params & { id: number }]>(
    `UPDATE corrections SET frame_index = @frameIndex, keyframe = @keyframe, time_ms = @timeMs,
      anchor_label = @anchorLabel, anchor_score = @anchorScore, anchor_x = @anchorX,
      anchor_y = @anchorY, anchor_w = @anchorW, anchor_h = @anchorH, label = @label, x = @x,
      y = @y, w = @w, h = @h, review = @review, deleted = @deleted, track = @track,
      updated_at = @updatedAt, ${PERSON_OWNS}, ${KEEP_COCO}
     WHERE id = @id AND content_hash = @contentHash AND solution = @solution`,
  );
  const numberOf = contentNumbers(db);
  return () => {
    const at = now();
    return {
      write(corrections, given) {
        const first = corrections[0];
        if (!first) return;
        const values: unknown[] = [];
        let rows = 0;
        // A number read by the caller (an import reads them a page of files at a time while the
        // labels are read: a lookup a content was 0.7 s of a 100k import's writes).
        let contentId = given;
        for (const c of corrections) {
          if (c.contentHash !== first.contentHash || c.solution !== first.solution)
            throw new Error('store: one bulk write is one content and solution');
          if (c.id === undefined) {
            contentId ??= numberOf(first.contentHash);
            pushInsertValues(values, c, at, contentId);
            rows++;
          } else if (updateRun.run({ ...params(c, at), id: c.id }).changes !== 1) {
            throw new StoreError(
              'not_found',
              `correction ${c.id} does not exist for this content and solution`,
            );
          }
        }
        insertAll(values, rows);
      },
    };
  };
}
