/**
 * Keeps the library view's counts true to the corrected set. The view (grid, filters, pending
 * counts) reads `detections.review`/`origin` and `results.box_count` in SQL; those columns are a
 * mirror of the merged state, rewritten here whenever corrections or the model's boxes change. The
 * model's labels and boxes are never touched: corrections live in their own table.
 */
import type { Db } from '../../node-lib/sqlite.js';
import { mergeCorrections, type MergedBox } from '../review/merge-corrections.js';
import { CORRECTION_COLUMNS, toCorrection, type CorrectionDbRow } from './corrections-repo.js';
import { fromRaw, RAW_DETECTION_COLUMNS, type RawDetection } from './row-mappers.js';
import type { DetectionOrigin, DetectionRow, MergeCorrection, ReviewState } from './store-types.js';

/** Returns whether it rewrote anything (a result without corrections needs nothing). */
export type MirrorFn = (contentHash: string, solution: string) => boolean;

/**
 * The same mirror when the caller already holds the state (an import that has just read the
 * model's boxes and written a content's only corrections): nothing is read back.
 */
export type MirrorKnownFn = (
  resultId: number,
  model: readonly DetectionRow[],
  corrections: readonly MergeCorrection[],
) => void;

/**
 * `merged`: each result's boxes as they show after the write, for what else follows them (review
 * priority scores the file again), in the same transaction.
 */
export function reviewMirror(
  db: Db,
  merged?: (resultId: number, boxes: readonly MergedBox[]) => void,
): { mirror: MirrorFn; mirrorKnown: MirrorKnownFn } {
  const corrections = db.prepare<[string, string], CorrectionDbRow>(
    `SELECT ${CORRECTION_COLUMNS} FROM corrections WHERE content_hash = ? AND solution = ?
     ORDER BY frame_index, id`,
  );
  const result = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM results WHERE content_hash = ? AND solution = ?',
  );
  const detections = db
    .prepare<[number], RawDetection>(
      `SELECT ${RAW_DETECTION_COLUMNS} FROM detections WHERE result_id = ?
       ORDER BY frame_index, id`,
    )
    .raw();
  const update = db.prepare<[ReviewState, DetectionOrigin, number]>(
    'UPDATE detections SET review = ?, origin = ? WHERE id = ?',
  );
  const count = db.prepare<[number, number]>('UPDATE results SET box_count = ? WHERE id = ?');

  const mirrorKnown: MirrorKnownFn = (resultId, model, rows) => {
    const shown = mergeCorrections(model, rows, { includeDeleted: true });
    const byId = new Map(model.map((d) => [d.id, d]));
    let boxes = 0;
    // Every model box is in `shown` (deleted ones included), so every mirror value is rewritten.
    for (const b of shown) {
      const review: ReviewState = b.deleted ? 'rejected' : b.review;
      if (!b.deleted && b.review !== 'rejected') boxes++;
      const d = b.detectionId === null ? undefined : byId.get(b.detectionId);
      if (d && (d.review !== review || d.origin !== b.origin)) update.run(review, b.origin, d.id);
    }
    count.run(boxes, resultId);
    merged?.(resultId, shown);
  };
  const mirror: MirrorFn = (contentHash, solution) => {
    const rows = corrections.all(contentHash, solution);
    // A fresh result without corrections is already mirrored: its boxes were saved pending.
    if (rows.length === 0) return false;
    const r = result.get(contentHash, solution);
    if (!r) return false;
    mirrorKnown(r.id, detections.all(r.id).map(fromRaw), rows.map(toCorrection));
    return true;
  };
  return { mirror, mirrorKnown };
}
