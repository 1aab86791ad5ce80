/**
 * The library view's mirror of the corrected set, as rows: the view (grid, filters, pending
 * counts) reads `detections.review`/`origin` and `results.box_count` in SQL; the corrected set
 * (core/review) computes their values and hands them here to be written. The model's labels and
 * boxes are never touched: corrections live in their own table.
 */
import type { Db } from '../../node-lib/sqlite.js';
import type { DetectionOrigin, ReviewState } from './store-types.js';

/**
 * Mirror values gathered over one or many contents and written set-based: detection ids per new
 * `review`/`origin` pair, result ids per new box count. A statement per value, not per row: an
 * import of 100k files rewrites a million detections.
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

export interface MirrorWrites {
  /** Writes the gathered values (inside the caller's transaction) and empties `changes`. */
  apply(changes: MirrorChanges): void;
}

export function mirrorWrites(db: Db): MirrorWrites {
  // A box's `rejected` flag is set only where it changes: migration 24's index of shown boxes is
  // rewritten only for those, not for the million boxes an import accepts.
  const byIds = 'id IN (SELECT value FROM json_each(?))';
  const byResults = 'result_id IN (SELECT value FROM json_each(?))';
  const statesOf = (where: string) => ({
    reject: db.prepare<[ReviewState, DetectionOrigin, string]>(
      `UPDATE detections SET review = ?, origin = ?, rejected = 1 WHERE ${where}`,
    ),
    restore: db.prepare<[ReviewState, DetectionOrigin, string]>(
      `UPDATE detections SET review = ?, origin = ?, rejected = 0 WHERE ${where} AND rejected = 1`,
    ),
    keep: db.prepare<[ReviewState, DetectionOrigin, string]>(
      `UPDATE detections SET review = ?, origin = ? WHERE ${where} AND rejected = 0`,
    ),
  });
  const setState = (statements: ReturnType<typeof statesOf>, state: string, ids: number[]) => {
    const [review, origin] = state.split(' ') as [ReviewState, DetectionOrigin];
    const json = JSON.stringify(ids);
    if (review === 'rejected') {
      statements.reject.run(review, origin, json);
      return;
    }
    // The shown boxes first: the restored ones then are not written twice.
    statements.keep.run(review, origin, json);
    statements.restore.run(review, origin, json);
  };
  const detections = statesOf(byIds);
  const results = statesOf(byResults);
  const setCount = db.prepare<[number, string]>(
    'UPDATE results SET box_count = ? WHERE id IN (SELECT value FROM json_each(?))',
  );
  return {
    apply(changes) {
      for (const [state, ids] of changes.detections) setState(detections, state, ids);
      for (const [state, ids] of changes.results) setState(results, state, ids);
      for (const [boxes, ids] of changes.counts) setCount.run(boxes, JSON.stringify(ids));
      changes.detections.clear();
      changes.results.clear();
      changes.counts.clear();
    },
  };
}
