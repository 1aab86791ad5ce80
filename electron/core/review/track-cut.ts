/**
 * Where a track is cut in two. Boxes are compared by their time in the clip, not by frame index:
 * a keyframe between analysed frames holds a clip frame, not a sample's index.
 */
import type { DetectionRow } from '../store/store-types.js';

export interface TrackCut {
  /** The analysed frame the cut is on. */
  frameIndex: number;
  /** The time of the cut, when it falls on a frame between samples (or to be exact). */
  timeMs?: number | undefined;
}

/**
 * Whether a box lies at or after the cut. Without a time, the cut is at the time of its sample:
 * that of the first analysed box on it or after it (samples are in time order). A box with no
 * time (never so in a clip) is placed by its frame index.
 */
export function atOrAfterCut(
  boxes: readonly DetectionRow[],
  cut: TrackCut,
): (box: DetectionRow) => boolean {
  let at = cut.timeMs ?? Infinity;
  if (cut.timeMs === undefined) {
    for (const b of boxes) {
      if (b.keyframe !== true && b.frameIndex >= cut.frameIndex && b.timeMs !== null)
        at = Math.min(at, b.timeMs);
    }
  }
  return (b) =>
    b.timeMs === null ? b.keyframe !== true && b.frameIndex >= cut.frameIndex : b.timeMs >= at;
}
