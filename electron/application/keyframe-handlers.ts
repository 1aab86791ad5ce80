/** `review.addKeyframe`: a box drawn or moved on a clip's frame becomes a keyframe of a track. */
import { addKeyframe } from '../core/review/keyframes.js';
import { ReviewService } from '../core/review/review-service.js';
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import type { Handlers } from '../shared/contract/index.js';
import type { ClipTracks } from './tracking/clip-tracks.js';

export function keyframeHandlers(
  store: LibraryStore,
  changed: (media: MediaRecord) => void,
  tracks?: ClipTracks,
): Pick<Handlers, 'review.addKeyframe'> {
  const review = new ReviewService(store, tracks?.cache);
  const add = ({ id, solution, ...keyframe }: Parameters<Handlers['review.addKeyframe']>[0]) => {
    const r = addKeyframe(store, id, solution, keyframe, review);
    changed(r.media);
    return { changed: r.inverse.length, inverse: r.inverse };
  };
  return { 'review.addKeyframe': tracks ? tracks.first(add) : add };
}
