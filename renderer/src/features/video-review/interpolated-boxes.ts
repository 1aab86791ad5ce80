/**
 * The boxes of a clip at any time, not only on analysed frames: each track's box is interpolated
 * between its anchors (its boxes, and a person's keyframes) with the same function the exports
 * use, and shown dashed. A track interpolated at that time shows its interpolated box instead of
 * the nearest analysed frame's box; boxes in no track stay as they are.
 */
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import {
  frameAt,
  interpolateAt,
  sortAnchors,
  timeOfFrame,
  type TrackAnchor,
} from '@shared/geometry/track-interpolation.js';

/** A box shown on the clip: a stored one, or a track's interpolated box (key `i<track>`). */
export type ShownBox = ReviewBox & { interpolated?: boolean };

export interface TrackPath {
  trackId: number;
  label: string;
  anchors: TrackAnchor[];
}

export const interpolatedKey = (trackId: number) => `i${trackId}`;

/** Each track's anchors in clip frames (at `fps`); deleted and rejected boxes are in no track. */
export function trackPaths(boxes: readonly ReviewBox[], fps: number): TrackPath[] {
  if (!(fps > 0)) return [];
  const byTrack = new Map<number, { label: string; anchors: TrackAnchor[] }>();
  for (const b of boxes) {
    if (b.trackId === null || b.timeMs === null || b.deleted) continue;
    const t = byTrack.get(b.trackId) ?? { label: b.label, anchors: [] };
    t.anchors.push({ frame: frameAt(b.timeMs, fps), bbox: b.bbox, score: b.score ?? NaN });
    byTrack.set(b.trackId, t);
  }
  return [...byTrack].flatMap(([trackId, t]) =>
    t.anchors.length < 2 ? [] : [{ trackId, label: t.label, anchors: sortAnchors(t.anchors) }],
  );
}

/** The interpolated box of every track that has one at `timeMs` (a keyframe-to-be on its frame). */
export function interpolatedAt(
  paths: readonly TrackPath[],
  timeMs: number,
  fps: number,
): ShownBox[] {
  if (!(fps > 0)) return [];
  const frame = frameAt(timeMs, fps);
  const out: ShownBox[] = [];
  for (const p of paths) {
    const b = interpolateAt(p.anchors, frame);
    if (!b) continue;
    out.push({
      key: interpolatedKey(p.trackId),
      detectionId: null,
      correctionId: null,
      frameIndex: frame,
      keyframe: true,
      timeMs: timeOfFrame(frame, fps),
      label: p.label,
      score: Number.isNaN(b.score) ? null : b.score,
      bbox: b.bbox,
      origin: 'added',
      review: 'pending',
      deleted: false,
      model: null,
      trackId: p.trackId,
      rule: null,
      interpolated: true,
    });
  }
  return out;
}

/**
 * What the clip shows at `timeMs`: the given frame's boxes, except those of tracks interpolated
 * there, then the interpolated boxes (after, so a list reads the stored boxes first).
 */
export function boxesAt(
  frameBoxes: readonly ReviewBox[],
  paths: readonly TrackPath[],
  timeMs: number,
  fps: number,
): ShownBox[] {
  const between = interpolatedAt(paths, timeMs, fps);
  if (between.length === 0) return frameBoxes as ShownBox[];
  const tracks = new Set(between.map((b) => b.trackId));
  return [...frameBoxes.filter((b) => b.trackId === null || !tracks.has(b.trackId)), ...between];
}
