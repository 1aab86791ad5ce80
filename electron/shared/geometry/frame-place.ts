/**
 * Where a box of a clip stands: an analysed sample (`frameIndex` is the sample's index) or a
 * keyframe a person put between samples (`keyframe: true`, `frameIndex` is the clip frame). The
 * two number spaces overlap (sample 5 is not clip frame 5), so whatever compares, keys or orders
 * boxes by frame goes through this file.
 */
export interface FramePlace {
  frameIndex: number;
  /** A keyframe between analysed samples. Absent: a sample. */
  keyframe?: true;
}

export const isKeyframe = (p: FramePlace): boolean => p.keyframe === true;

export const samePlace = (a: FramePlace, b: FramePlace): boolean =>
  a.frameIndex === b.frameIndex && isKeyframe(a) === isKeyframe(b);

/**
 * One number per place, for a Map's key and for ordering only (never stored nor sent): samples
 * keep their index, keyframes come before every sample. Orders as rows are read (keyframes first,
 * the latest clip frame first, then samples), which the merge's and the exports' order rely on.
 */
export const placeKey = (frameIndex: number, keyframe: boolean | undefined): number =>
  keyframe === true ? -frameIndex - 1 : frameIndex;

export const placeKeyOf = (p: FramePlace): number => placeKey(p.frameIndex, p.keyframe);

/** Ascending place order (a sort comparator), see `placeKey`. */
export const byPlace = (a: FramePlace, b: FramePlace): number =>
  // Samples only (nearly every comparison): a subtraction, as before keyframes were a field.
  a.keyframe === true || b.keyframe === true
    ? placeKeyOf(a) - placeKeyOf(b)
    : a.frameIndex - b.frameIndex;
