/**
 * Interpolation of a track between its anchors: the boxes it has on analysed frames and the
 * keyframes a person drew or moved. On every frame of the clip strictly between two consecutive
 * anchors the box is linear in position and size; before the first anchor, after the last, and
 * across a gap longer than `maxGap` frames there is none. Pure, shared by the review (which draws
 * the boxes) and the exports (which write them), so both show exactly the same boxes.
 */
import type { NormBox } from './box-math.js';

/** One box of a track on one frame of the clip (0-based, at the clip's own rate). */
export interface TrackAnchor {
  frame: number;
  bbox: NormBox;
  score: number;
}

export interface InterpolatedBox {
  frame: number;
  bbox: NormBox;
  score: number;
}

/** The 0-based frame of the clip shown at `timeMs` (the nearest one). */
export function frameAt(timeMs: number, fps: number): number {
  return Math.max(0, Math.round((timeMs * fps) / 1000));
}

/** The time of a clip frame, in ms from the start. */
export function timeOfFrame(frame: number, fps: number): number {
  return (frame * 1000) / fps;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

function between(a: TrackAnchor, b: TrackAnchor, frame: number): InterpolatedBox {
  const t = (frame - a.frame) / (b.frame - a.frame);
  return {
    frame,
    bbox: {
      x: lerp(a.bbox.x, b.bbox.x, t),
      y: lerp(a.bbox.y, b.bbox.y, t),
      w: lerp(a.bbox.w, b.bbox.w, t),
      h: lerp(a.bbox.h, b.bbox.h, t),
    },
    score: lerp(a.score, b.score, t),
  };
}

/**
 * A track's anchors in frame order, one per frame (the first given for a frame wins: two boxes of
 * one track on one frame are a person's to sort out, not something to average).
 */
export function sortAnchors(anchors: readonly TrackAnchor[]): TrackAnchor[] {
  const sorted = [...anchors].sort((a, b) => a.frame - b.frame);
  return sorted.filter((a, i) => i === 0 || (sorted[i - 1] as TrackAnchor).frame !== a.frame);
}

/**
 * The interpolated box of a track on `frame`: null on an anchor's own frame, outside the track,
 * or in a gap longer than `maxGap`. `sorted` comes from `sortAnchors` (binary search: this runs
 * for every track on every video frame drawn).
 */
export function interpolateAt(
  sorted: readonly TrackAnchor[],
  frame: number,
  maxGap = Infinity,
): InterpolatedBox | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as TrackAnchor).frame < frame) lo = mid + 1;
    else hi = mid;
  }
  const after = sorted[lo];
  const before = sorted[lo - 1];
  if (!after || !before || after.frame === frame) return null;
  if (after.frame - before.frame > maxGap) return null;
  return between(before, after, frame);
}

/** Every interpolated box of a track, frame by frame (the anchors' own frames left out). */
export function* interpolateTrack(
  sorted: readonly TrackAnchor[],
  maxGap = Infinity,
): Generator<InterpolatedBox> {
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as TrackAnchor;
    const b = sorted[i] as TrackAnchor;
    if (b.frame - a.frame > maxGap) continue;
    for (let f = a.frame + 1; f < b.frame; f++) yield between(a, b, f);
  }
}
