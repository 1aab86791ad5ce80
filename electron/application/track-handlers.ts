/**
 * The calls on a whole track of a clip. Each is one undo step made of ordinary corrections (one per
 * box), so it survives re-analysis like any edit and `review.editMany` with its inverse undoes it.
 */
import type { ReviewEdit as CoreEdit } from '../core/review/review-edits.js';
import { ReviewService } from '../core/review/review-service.js';
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import type { Handlers } from '../shared/contract/index.js';
import type { ReviewEdit } from '../shared/contract/review-schemas.js';

type TrackHandlers = Pick<Handlers, 'review.editTrack'>;

const toWire = (e: CoreEdit): ReviewEdit => e as ReviewEdit;

/** The review state each decision leaves a box in (a box already there is not touched again). */
const ALREADY = { accept: 'accepted', reject: 'rejected' } as const;

export function trackHandlers(
  store: LibraryStore,
  changed: (media: MediaRecord) => void,
): TrackHandlers {
  const review = new ReviewService(store);
  return {
    'review.editTrack': ({ id, solution, trackId, kind }) => {
      const r = review.bulk(
        id,
        solution,
        (b) => b.trackId === trackId && (kind === 'delete' || b.review !== ALREADY[kind]),
        (b) => ({ kind, box: { detectionId: b.detectionId, correctionId: b.correctionId } }),
      );
      if (r.inverse.length) changed(r.media);
      return { changed: r.inverse.length, inverse: r.inverse.map(toWire) };
    },
  };
}
