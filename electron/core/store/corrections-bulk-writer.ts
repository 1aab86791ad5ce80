/**
 * Corrections written in bulk (an import of 100k files) inside the caller's transaction: each
 * content's rows are inserted as soon as they are planned, so nothing of a file outlives its turn
 * (a batch's worth of rows and model boxes held until the end was promoted by the collector and
 * grew the heap past a gigabyte); the library view's mirror is gathered as ids and written
 * set-based when the batch finishes.
 */
import type { Db } from '../../node-lib/sqlite.js';
import {
  asMergeCorrections,
  COLUMNS,
  pushInsertValues,
  params,
  PERSON_OWNS,
  POSITIONS,
  type Params,
} from './correction-params.js';
import { MirrorChanges, type ReviewMirror } from './review-mirror.js';
import { StoreError } from './store-error.js';
import type { CorrectionInput, CorrectionsBulkWriter, KnownContent } from './store-types.js';

/** Rows per insert statement (SQLite takes up to 32,766 parameters). */
const ROWS = 32;

export function correctionsBulkWriter(
  db: Db,
  now: () => number,
  mirrors: ReviewMirror,
): () => CorrectionsBulkWriter {
  // A content's new rows in one statement of as many rows (up to ROWS): a statement a row cost
  // 0.6 s more CPU over a million rows.
  const inserts = new Map<number, ReturnType<Db['prepare']>>();
  const insertOf = (rows: number) => {
    let stmt = inserts.get(rows);
    if (!stmt) {
      stmt = db.prepare<unknown[]>(
        `INSERT INTO corrections (content_hash, solution, frame_index, time_ms, anchor_label,
          anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review,
          deleted, track, updated_at) VALUES ${Array(rows).fill(`(${POSITIONS})`).join(', ')}`,
      );
      inserts.set(rows, stmt);
    }
    return stmt;
  };
  const insertAll = (values: unknown[], rows: number) => {
    for (let done = 0; done < rows; done += ROWS) {
      const n = Math.min(ROWS, rows - done);
      insertOf(n).run(values.slice(done * COLUMNS, (done + n) * COLUMNS));
    }
  };
  const updateRun = db.prepare<[Params & { id: number }]>(
    `UPDATE corrections SET frame_index = @frameIndex, time_ms = @timeMs,
      anchor_label = @anchorLabel, anchor_score = @anchorScore, anchor_x = @anchorX,
      anchor_y = @anchorY, anchor_w = @anchorW, anchor_h = @anchorH, label = @label, x = @x,
      y = @y, w = @w, h = @h, review = @review, deleted = @deleted, track = @track,
      updated_at = @updatedAt, ${PERSON_OWNS}
     WHERE id = @id AND content_hash = @contentHash AND solution = @solution`,
  );
  return () => {
    const at = now();
    const changes = new MirrorChanges();
    // Contents whose mirror is gathered but not yet written: a second write of one of them is
    // mirrored from the table, so the first's values are written before it is read again.
    const gathered = new Set<string>();
    return {
      write(corrections, known) {
        const first = corrections[0];
        if (!first) return;
        const key = `${first.solution}\u0000${first.contentHash}`;
        if (gathered.has(key)) {
          mirrors.applyMirror(changes);
          gathered.clear();
        }
        const values: unknown[] = [];
        let rows = 0;
        for (const c of corrections) {
          if (c.contentHash !== first.contentHash || c.solution !== first.solution)
            throw new Error('store: one bulk write is one content and solution');
          if (c.id === undefined) {
            pushInsertValues(values, c, at);
            rows++;
          } else if (updateRun.run({ ...params(c, at), id: c.id }).changes !== 1) {
            throw new StoreError(
              'not_found',
              `correction ${c.id} does not exist for this content and solution`,
            );
          }
        }
        insertAll(values, rows);
        gathered.add(key);
        // Only a content whose every correction is new can be mirrored from what was written.
        if (known && corrections.every((c) => c.id === undefined)) {
          const rows = asMergeCorrections(corrections);
          mirrors.planMirrorKnown(known.resultId, known.model, rows, changes);
        } else mirrors.planMirror(first.contentHash, first.solution, changes);
      },
      finish() {
        mirrors.applyMirror(changes);
        gathered.clear();
      },
    };
  };
}

/** `writeMany` on the bulk writer: the corrections grouped by content, one transaction. */
export function writeManyWith(
  db: Db,
  bulk: () => CorrectionsBulkWriter,
): (
  cs: readonly CorrectionInput[],
  known?: (hash: string, solution: string) => KnownContent | undefined,
) => number {
  return db.transaction((cs: readonly CorrectionInput[], fresh) => {
    const contents = new Map<string, CorrectionInput[]>();
    for (const c of cs) {
      const key = `${c.solution}\u0000${c.contentHash}`;
      const list = contents.get(key);
      if (list) list.push(c);
      else contents.set(key, [c]);
    }
    const writer = bulk();
    for (const list of contents.values()) {
      const c = list[0] as CorrectionInput;
      writer.write(list, fresh?.(c.contentHash, c.solution));
    }
    writer.finish();
    return cs.length;
  });
}
