/**
 * Review over the library store: an item's corrected boxes, and edits saved as corrections (one
 * transaction per call) through the corrected set. The application layer's review calls are thin
 * wrappers of these.
 */
import type { MediaReader, ResultsReader } from '../store/store-ports.js';
import type { CorrectionRow, DetectionRow, MediaRecord, ResultRow } from '../store/store-types.js';
import { ModelTrackCache } from '../tracking/model-track-cache.js';
import type { CorrectedSet, ItemState } from './corrected-set.js';
import type { MergedBox } from './merge-corrections.js';
import { correctedSetOf } from './open-library-store.js';
import { placeTracks, type TrackedBox } from './place-tracks.js';
import { planEdit, ReviewEditError, type ReviewEdit } from './review-edits.js';

export interface ItemBoxes {
  media: MediaRecord;
  result: ResultRow | undefined;
  content: { contentHash: string; solution: string };
  /** Every box, deleted ones included (flagged), clips' boxes with their track. */
  boxes: TrackedBox[];
}

/**
 * What review reads of the library itself (an item's file and analysis); every write goes through
 * the corrected set of the same store.
 */
export type ReviewReader = MediaReader & ResultsReader;

export class ReviewService {
  private readonly set: CorrectedSet;
  /**
   * The model's rows of the item read last (by analysis), so a run of edits on one image reads
   * them once: the shared cache keeps only large clips'. Never changed by a merge; a re-analysis
   * is a new analysis (`createdAt`), and any result written through this store drops them.
   */
  private last: { analysis: string; rows: readonly DetectionRow[] } | undefined;

  /** `tracks` is shared by every service over the same store (the app fills it from a worker). */
  constructor(
    private readonly store: ReviewReader,
    private readonly tracks = new ModelTrackCache(),
  ) {
    this.set = correctedSetOf(store);
  }

  /**
   * The item's corrected boxes; throws `unknown_item` / `not_labelled` with a sentence. `tracked`
   * false skips tracking a clip's boxes (planning an edit needs no track ids, only a person's).
   */
  item(mediaId: number, solution: string, tracked = true): ItemBoxes {
    const state = this.read(mediaId, solution);
    return {
      ...state,
      boxes: tracked ? this.placed(state.media, state.model, state.boxes) : state.boxes,
    };
  }

  /** A clip's boxes in their tracks (once per call: the model's tracks are cached). */
  private placed(media: MediaRecord, model: ItemState['model'], boxes: MergedBox[]): TrackedBox[] {
    return media.kind === 'video' ? placeTracks(boxes, this.tracks.tracksOf(model)) : boxes;
  }

  /** The item's rows read once (the model's kept between calls) and merged. */
  private read(mediaId: number, solution: string): ItemState {
    const media = this.store.media.byId(mediaId);
    if (!media || media.status === 'missing') {
      throw new ReviewItemError('unknown_item', 'That file is no longer in the library.');
    }
    if (!media.contentHash) {
      throw new ReviewItemError('not_labelled', 'That file has not been read yet.');
    }
    const result = this.store.results.find(media.contentHash, solution);
    const model = result ? this.modelRows(result) : [];
    return this.set.read(media, media.contentHash, solution, result, model);
  }

  private modelRows(result: ResultRow): readonly DetectionRow[] {
    const analysis = `${result.id}:${result.createdAt}:${this.set.resultWrites}`;
    if (this.last?.analysis === analysis) return this.last.rows;
    const rows = this.tracks.rowsOf(result, () => this.store.results.detections(result.id));
    this.last = { analysis, rows };
    return rows;
  }

  /**
   * One edit, in its own transaction: the item read and merged once, the edit planned on it and
   * written with its mirror and priority by the corrected set, the clip's tracks placed once on
   * the boxes after it. The box after it (null if not shown) and its inverse.
   */
  edit(
    mediaId: number,
    solution: string,
    edit: ReviewEdit,
  ): { media: MediaRecord; box: TrackedBox | null; inverse: ReviewEdit } {
    const item = this.read(mediaId, solution);
    const { stored, inverse, item: next } = this.set.edit(item, edit);
    const { boxes } = next;
    const after = boxes.find((b) => b.correctionId === stored.id);
    if (!after || after.deleted) return { media: item.media, box: null, inverse };
    // Track ids depend on the whole clip's boxes: placed on all of them, once.
    this.placed(item.media, item.model, boxes);
    return { media: item.media, box: after, inverse };
  }

  /** Several edits, all or none; returns the edits that undo them, in undo order. */
  editMany(
    mediaId: number,
    solution: string,
    edits: readonly ReviewEdit[],
  ): { media: MediaRecord; inverse: ReviewEdit[] } {
    return this.set.transaction(() => {
      const inverse: ReviewEdit[] = [];
      // Each edit is planned on the boxes after the ones before it (an undo names corrections
      // those made), the item read once, without tracking the clip: an undo of a whole track is
      // hundreds of edits.
      let item = this.read(mediaId, solution);
      for (const e of edits) {
        const outcome = this.set.edit(item, e);
        inverse.push(outcome.inverse);
        item = outcome.item;
      }
      return { media: item.media, inverse: inverse.reverse() };
    });
  }

  /** Plans one edit per chosen box against one merge, and stores them in one transaction. */
  bulk(
    mediaId: number,
    solution: string,
    choose: (box: TrackedBox) => boolean,
    editOf: (box: MergedBox) => ReviewEdit,
  ): { media: MediaRecord; inverse: ReviewEdit[] } {
    const { media, boxes, content } = this.item(mediaId, solution);
    const plans = boxes
      .filter((b) => !b.deleted && choose(b))
      .map((b) => planEdit(boxes, editOf(b), content));
    const stored = this.set.putMany(plans.map((p) => p.correction));
    return { media, inverse: plans.map((p, i) => p.inverse(stored[i] as CorrectionRow)) };
  }
}

export class ReviewItemError extends Error {
  override readonly name = 'ReviewItemError';
  constructor(
    readonly code: 'unknown_item' | 'not_labelled',
    message: string,
  ) {
    super(message);
  }
}

export { ReviewEditError };
