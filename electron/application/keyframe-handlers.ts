/** `review.addKeyframe`: a box drawn or moved on a clip's frame becomes a keyframe of a track. */
import { addKeyframe } from '../core/review/keyframes.js';
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import type { Handlers } from '../shared/contract/index.js';

export function keyframeHandlers(
  store: LibraryStore,
  changed: (media: MediaRecord) => void,
): Pick<Handlers, 'review.addKeyframe'> {
  return {
    'review.addKeyframe': ({ id, solution, ...keyframe }) => {
      const r = addKeyframe(store, id, solution, keyframe);
      changed(r.media);
      return { changed: r.inverse.length, inverse: r.inverse };
    },
  };
}
