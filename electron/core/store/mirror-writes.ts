/**
 * Keeps the library view's counts true to the corrected set. The view (grid, filters, pending
 * counts) reads `detections.review`/`origin` and `results.box_count` in SQL; those columns are a
 * mirror of the merged state, rewritten here whenever corrections or the model's boxes change. The
 * model's labels and boxes are never touched: corrections live in their own table.
 */
import type { Db } from '../../node-lib/sqlite.js';
import { mergeCorrections, type MergedBox } from '../review/merge-corrections.js';
import { CORRECTION_COLUMNS, fromRawCorrection, type RawCorrection } from './corrections-repo.js';
import { fromRaw, RAW_DETECTION_COLUMNS, type RawDetection } from './row-mappers.js';
import type { DetectionOrigin, DetectionRow, MergeCorrection, ReviewState } from './store-types.js';

/** Returns whether it rewrote anything (a result without corrections needs nothing). */
export type MirrorFn = (contentHash: string, solution: string) => boolean;

/**
 * Mirror values gathered over many contents and written set-based at the end (a bulk writer):
 * detection ids per new `review`/`origin` pair, result ids per new box count. A statement per
 * value, not per row: an import of 100k files rewrites a million detections.
 */
export class MirrorChanges {
  readonly detections = new Map<string, number[]>();
  /** Results all of whose boxes take one pair (an import's edits): rewritten by result, cheaper. */
  readonly results = new Map<string, number[]>();
  readonly counts = new Map<number, number[]>();

  detection(id: number, review: ReviewState, origin: DetectionOrigin): void {
    push(this.detections, `${review} ${origin}`, id);
  }

  result(id: number, review: ReviewState, origin: DetectionOrigin): void {
    push(this.results, `${review} ${origin}`, id);
  }

  count(resultId: number, boxes: number): void {
    push(this.counts, boxes, resultId);
  }
}

function push<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

export interface ReviewMirror {
  mirror: MirrorFn;
  /** `mirror`, gathered into `changes` instead of written. */
  planMirror(contentHash: string, solution: string, changes: MirrorChanges): boolean;
  /**
   * The same when the caller already holds the state (an import that has just read the model's
   * boxes and written a content's only corrections): nothing is read back.
   */
  planMirrorKnown(
    resultId: number,
    model: readonly DetectionRow[],
    corrections: readonly MergeCorrection[],
    changes: MirrorChanges,
  ): void;
  applyMirror(changes: MirrorChanges): void;
}

/**
 * `merged`: each result's boxes as they show after the write, for what else follows them (review
 * priority scores the file again), in the same transaction.
 */
export function reviewMirror(
  db: Db,
  merged?: (resultId: number, boxes: readonly MergedBox[]) => void,
): ReviewMirror {
  const corrections = db
    .prepare<[string, string], RawCorrection>(
      `SELECT ${CORRECTION_COLUMNS} FROM corrections WHERE content_hash = ? AND solution = ?
       ORDER BY frame_index, id`,
    )
    .raw();
  const result = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM results WHERE content_hash = ? AND solution = ?',
  );
  const detections = db
    .prepare<[number], RawDetection>(
      `SELECT ${RAW_DETECTION_COLUMNS} FROM detections WHERE result_id = ?
       ORDER BY frame_index, id`,
    )
    .raw();
  const setState = db.prepare<[ReviewState, DetectionOrigin, string]>(
    `UPDATE detections SET review = ?, origin = ?
     WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const setResultState = db.prepare<[ReviewState, DetectionOrigin, string]>(
    `UPDATE detections SET review = ?, origin = ?
     WHERE result_id IN (SELECT value FROM json_each(?))`,
  );
  const setCount = db.prepare<[number, string]>(
    'UPDATE results SET box_count = ? WHERE id IN (SELECT value FROM json_each(?))',
  );

  const planMirrorKnown: ReviewMirror['planMirrorKnown'] = (resultId, model, rows, changes) => {
    const shown = mergeCorrections(model, rows, { includeDeleted: true });
    const byId = new Map(model.map((d) => [d.id, d]));
    let boxes = 0;
    const changed: { id: number; review: ReviewState; origin: DetectionOrigin }[] = [];
    // Whether every model box takes the same pair: then one rewrite by result does for all.
    let uniform: string | null | undefined;
    let onModel = 0;
    // Every model box is in `shown` (deleted ones included), so every mirror value is rewritten.
    for (const b of shown) {
      const review: ReviewState = b.deleted ? 'rejected' : b.review;
      if (!b.deleted && b.review !== 'rejected') boxes++;
      const d = b.detectionId === null ? undefined : byId.get(b.detectionId);
      if (!d) continue;
      onModel++;
      const pair = `${review} ${b.origin}`;
      uniform = uniform === undefined || uniform === pair ? pair : null;
      if (d.review !== review || d.origin !== b.origin)
        changed.push({ id: d.id, review, origin: b.origin });
    }
    const first = changed[0];
    if (first && uniform && onModel === model.length)
      changes.result(resultId, first.review, first.origin);
    else for (const c of changed) changes.detection(c.id, c.review, c.origin);
    changes.count(resultId, boxes);
    merged?.(resultId, shown);
  };
  const applyMirror = (changes: MirrorChanges) => {
    for (const [state, ids] of changes.detections) {
      const [review, origin] = state.split(' ') as [ReviewState, DetectionOrigin];
      setState.run(review, origin, JSON.stringify(ids));
    }
    for (const [state, ids] of changes.results) {
      const [review, origin] = state.split(' ') as [ReviewState, DetectionOrigin];
      setResultState.run(review, origin, JSON.stringify(ids));
    }
    for (const [boxes, ids] of changes.counts) setCount.run(boxes, JSON.stringify(ids));
    changes.detections.clear();
    changes.results.clear();
    changes.counts.clear();
  };
  const planMirror: ReviewMirror['planMirror'] = (contentHash, solution, changes) => {
    const rows = corrections.all(contentHash, solution);
    // A fresh result without corrections is already mirrored: its boxes were saved pending.
    if (rows.length === 0) return false;
    const r = result.get(contentHash, solution);
    if (!r) return false;
    planMirrorKnown(r.id, detections.all(r.id).map(fromRaw), rows.map(fromRawCorrection), changes);
    return true;
  };
  const once = new MirrorChanges();
  return {
    mirror: (contentHash, solution) => {
      const wrote = planMirror(contentHash, solution, once);
      applyMirror(once);
      return wrote;
    },
    planMirror,
    planMirrorKnown,
    applyMirror,
  };
}
