/**
 * What follows a change of an item's corrected boxes, computed here and written through the store
 * as rows: the library view's mirror (each model box's shown `review`/`origin`, the result's box
 * count) and the item's review priority. Called by the corrected set in the transaction of every
 * write (an edit, an undo, an import, a re-analysis, an auto-accept batch).
 */
import type { CorrectedSetRows } from '../store/library-database-types.js';
import { MirrorChanges } from '../store/mirror-writes.js';
import type { PriorityBasis } from '../store/review-priority-types.js';
import { medianGroup } from '../store/review-priority-types.js';
import type {
  DetectionOrigin,
  DetectionRow,
  MergeCorrection,
  ReviewState,
} from '../store/store-types.js';
import { mergeCorrections, type MergedBox } from './merge-corrections.js';
import { reviewPriority, type PriorityBox } from './review-priority.js';

export { MirrorChanges };

interface ParsedBasis {
  thresholds: ReadonlyMap<string, number>;
  medians: ReadonlyMap<string, number>;
}

/** The value a model box's mirror takes as the item shows it: a deleted box counts as rejected. */
export const mirroredReview = (b: MergedBox): ReviewState => (b.deleted ? 'rejected' : b.review);
/** Whether a shown box counts in the result's box count. */
export const counted = (b: MergedBox) => !b.deleted && b.review !== 'rejected';

export class CorrectedMirror {
  /** The last priority basis parsed, by its stored text: a run of edits parses it once. */
  private parsed: { text: string; basis: ParsedBasis } | undefined;

  constructor(
    private readonly db: Pick<CorrectedSetRows, 'corrections' | 'results' | 'priority' | 'mirror'>,
  ) {}

  /** Mirrors one content now; whether it rewrote anything (nothing without corrections). */
  mirror(contentHash: string, solution: string): boolean {
    const changes = new MirrorChanges();
    const wrote = this.plan(contentHash, solution, changes);
    this.db.mirror.apply(changes);
    return wrote;
  }

  /** `mirror`, gathered into `changes` instead of written (read from the tables). */
  plan(contentHash: string, solution: string, changes: MirrorChanges): boolean {
    const rows = this.db.corrections.forContent(contentHash, solution);
    // A fresh result without corrections is already mirrored: its boxes were saved pending.
    if (rows.length === 0) return false;
    const result = this.db.results.find(contentHash, solution);
    if (!result) return false;
    this.planKnown(result.id, this.db.results.detections(result.id), rows, changes);
    return true;
  }

  /**
   * The same when the caller already holds the state (an import that has just read the model's
   * boxes and written a content's only corrections): nothing is read back.
   */
  planKnown(
    resultId: number,
    model: readonly DetectionRow[],
    corrections: readonly MergeCorrection[],
    changes: MirrorChanges,
    /** False when the caller knows no file of the result has a stored score. */
    rescore = true,
  ): void {
    const shown = mergeCorrections(model, corrections, { includeDeleted: true });
    const byId = new Map(model.map((d) => [d.id, d]));
    let boxes = 0;
    const changed: { id: number; review: ReviewState; origin: DetectionOrigin }[] = [];
    // Whether every model box takes the same pair: then one rewrite by result does for all.
    let uniform: string | null | undefined;
    let onModel = 0;
    // Every model box is in `shown` (deleted ones included), so every mirror value is rewritten.
    for (const b of shown) {
      const review = mirroredReview(b);
      if (counted(b)) boxes++;
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
    if (rescore) this.rescore(resultId, shown);
  }

  /** Scores the files of one result again from its boxes as they show now, on the stored basis. */
  rescore(resultId: number, boxes: readonly PriorityBox[]): void {
    for (const f of this.db.priority.scoredFiles(resultId)) {
      const { thresholds, medians } = this.basis(f.basis);
      const folderMedian = medians.get(medianGroup(f.folderId, f.kind)) ?? 0;
      const p = reviewPriority(boxes, { thresholds, folderMedian });
      this.db.priority.setScore(f.solution, f.id, p.score);
    }
  }

  private basis(text: string): ParsedBasis {
    if (this.parsed?.text !== text) {
      const b = JSON.parse(text) as PriorityBasis;
      const basis = { thresholds: new Map(b.thresholds), medians: new Map(b.medians) };
      this.parsed = { text, basis };
    }
    return this.parsed.basis;
  }
}
