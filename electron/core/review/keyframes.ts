/**
 * Keyframes: a box a person draws or moves on one frame of a clip becomes an anchor of a track,
 * and the track's boxes are interpolated between its anchors (shared/geometry/track-interpolation).
 * Adding one makes the whole track a person's track first (every box pinned to its id), so the
 * tracker never splits off or renumbers what the person built; then the track's box on that frame
 * moves, or a box is added there. All in one transaction, undone as one step.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { samePlace } from '../../shared/geometry/frame-place.js';
import type { ReviewEdit } from '../../shared/contract/review-schemas.js';
import type { LibraryStore, MediaRecord } from '../store/store-types.js';
import type { TrackedBox } from './export-boxes.js';
import { ReviewService } from './review-service.js';

export interface Keyframe {
  trackId: number;
  /** A sample's index; with `keyframe`, a clip frame between samples. */
  frameIndex: number;
  keyframe?: true | undefined;
  timeMs: number;
  /** The class of a new track (an existing track keeps its own). */
  label: string;
  bbox: NormBox;
}

const refOf = (b: TrackedBox) => ({ detectionId: b.detectionId, correctionId: b.correctionId });

export function addKeyframe(
  store: LibraryStore,
  mediaId: number,
  solution: string,
  k: Keyframe,
  review = new ReviewService(store),
): { media: MediaRecord; inverse: ReviewEdit[] } {
  return store.transaction(() => {
    const { boxes } = review.item(mediaId, solution);
    const inTrack = (b: TrackedBox) => !b.deleted && b.trackId === k.trackId;
    const label = boxes.find(inTrack)?.label ?? k.label;
    const pinned = review.bulk(
      mediaId,
      solution,
      (b) => inTrack(b) && b.personTrack !== k.trackId,
      (b) => ({ kind: 'track', box: refOf(b), track: k.trackId }),
    );
    const onFrame = boxes.find((b) => inTrack(b) && samePlace(b, k));
    const edit: ReviewEdit = onFrame
      ? { kind: 'move', box: refOf(onFrame), bbox: k.bbox }
      : {
          kind: 'add',
          frameIndex: k.frameIndex,
          ...(k.keyframe === true ? { keyframe: true as const } : {}),
          timeMs: k.timeMs,
          label,
          bbox: k.bbox,
          track: k.trackId,
        };
    const r = review.edit(mediaId, solution, edit);
    // Undo: the box first, then the pins (the reverse of how they were made).
    return { media: r.media, inverse: [r.inverse, ...pinned.inverse] };
  });
}
