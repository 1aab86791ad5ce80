/**
 * A keyframe is a column of its correction (migration 19): `frame_index` holds the real frame (a
 * sample's index, or for a keyframe between samples its clip frame) and `keyframe` says which.
 * The rest of the code and the team wire still know a keyframe by `offSampleIndex(clip frame)`:
 * this file is the one place the store translates between the two, on every write and every read.
 */
import { isOffSample, offSampleIndex } from '../../shared/geometry/track-interpolation.js';

/** The stored `frame_index` of a frame index as the code knows it (offSampleIndex is its own inverse). */
export function storedFrame(frameIndex: number): number {
  return isOffSample(frameIndex) ? offSampleIndex(frameIndex) : frameIndex;
}

/** The stored `keyframe` flag of a frame index as the code knows it. */
export function keyframeFlag(frameIndex: number): 0 | 1 {
  return isOffSample(frameIndex) ? 1 : 0;
}

/**
 * The frame index as the code and the team wire know it, from a row's columns (`table` is a
 * qualifier such as `NEW.`): in a select list it is named `frame_index`, so an `ORDER BY
 * frame_index` orders as before, through the index on this very expression.
 */
export const wireFrameIndex = (table = '') =>
  `(CASE WHEN ${table}keyframe = 1 THEN -${table}frame_index - 1 ELSE ${table}frame_index END)`;
