/**
 * Review over the library store: an item's corrected boxes, and edits saved as corrections (one
 * transaction per call). The application layer's review calls are thin wrappers of these.
 */
import type { CorrectionRow, LibraryStore, MediaRecord, ResultRow } from '../store/store-types.js';
import { ModelTrackCache } from '../tracking/model-track-cache.js';
import { mergeCorrections, type MergedBox } from './merge-corrections.js';
import { placeTracks, type TrackedBox } from './place-tracks.js';
import { planEdit, ReviewEditError, type ReviewEdit } from './review-edits.js';

export interface ItemBoxes {
  media: MediaRecord;
  result: ResultRow | undefined;
  content: { contentHash: string; solution: string };
  /** Every box, deleted ones included (flagged), clips' boxes with their track. */
  boxes: TrackedBox[];
}

export class ReviewService {
  /** `tracks` is shared by every service over the same store (the app fills it from a worker). */
  constructor(
    private readonly store: LibraryStore,
    private readonly tracks = new ModelTrackCache(),
  ) {}

  /**
   * The item's corrected boxes; throws `unknown_item` / `not_labelled` with a sentence. `tracked`
   * false skips tracking a clip's boxes (planning an edit needs no track ids, only a person's).
   */
  item(mediaId: number, solution: string, tracked = true): ItemBoxes {
    const media = this.store.media.byId(mediaId);
    if (!media || media.status === 'missing') {
      throw new ReviewItemError('unknown_item', 'That file is no longer in the library.');
    }
    if (!media.contentHash) {
      throw new ReviewItemError('not_labelled', 'That file has not been read yet.');
    }
    const content = { contentHash: media.contentHash, solution };
    const result = this.store.results.find(media.contentHash, solution);
    const model = result
      ? this.tracks.rowsOf(result, () => this.store.results.detections(result.id))
      : [];
    const merged = mergeCorrections(
      model,
      this.store.corrections.forContent(media.contentHash, solution),
      {
        includeDeleted: true,
        ...(result
          ? { analysed: { width: result.analysedWidth, height: result.analysedHeight } }
          : {}),
      },
    );
    const boxes =
      media.kind === 'video' && tracked ? placeTracks(merged, this.tracks.tracksOf(model)) : merged;
    return { media, result, content, boxes };
  }

  /** One edit, in its own transaction; the box after it (null if not shown) and its inverse. */
  edit(
    mediaId: number,
    solution: string,
    edit: ReviewEdit,
  ): { media: MediaRecord; box: TrackedBox | null; inverse: ReviewEdit } {
    const { media, boxes, content } = this.item(mediaId, solution);
    const plan = planEdit(boxes, edit, content);
    const stored = this.store.corrections.put(plan.correction);
    const after = this.item(mediaId, solution).boxes.find((b) => b.correctionId === stored.id);
    return {
      media,
      box: after && !after.deleted ? after : null,
      inverse: plan.inverse(stored),
    };
  }

  /** Several edits, all or none; returns the edits that undo them, in undo order. */
  editMany(
    mediaId: number,
    solution: string,
    edits: readonly ReviewEdit[],
  ): { media: MediaRecord; inverse: ReviewEdit[] } {
    return this.store.transaction(() => {
      const inverse: ReviewEdit[] = [];
      let media: MediaRecord | undefined;
      // Each edit is planned on the boxes after the ones before it (an undo names corrections
      // those made), without tracking the clip again for every edit: an undo of a whole track is
      // hundreds of edits.
      for (const e of edits) {
        const { media: m, boxes, content } = this.item(mediaId, solution, false);
        const plan = planEdit(boxes, e, content);
        inverse.push(plan.inverse(this.store.corrections.put(plan.correction)));
        media = m;
      }
      return { media: media as MediaRecord, inverse: inverse.reverse() };
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
    const stored = this.store.corrections.putMany(plans.map((p) => p.correction));
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
