/**
 * Keyframes in the video review. Paused between analysed frames, the picture shows each track's
 * interpolated box (dashed) and can be edited: moving or resizing a dashed box, or any track's box between analysed
 * frames, saves a keyframe of that track on that frame. A box drawn joins the track followed (the
 * last one a person selected) when it has no box on that frame yet; otherwise a box drawn between
 * analysed frames starts a new track, and one drawn on an analysed frame is left to the tracker.
 */
import { useCallback, useMemo, useState } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import type { NormBox } from '@shared/geometry/box-math.js';
import { samePlace } from '@shared/geometry/frame-place.js';
import { frameAt, timeOfFrame } from '@shared/geometry/track-interpolation.js';
import { useApiHandle } from '../../api/api-context.js';
import type { BoxChange } from '../review/box-stage.js';
import type { ReviewEdits } from '../review/use-review-edits.js';
import type { DrawTarget, KeyframeHooks } from '../review/use-review-workbench.js';
import { boxesAt, trackPaths, type ShownBox, type TrackPath } from './interpolated-boxes.js';

interface KeyframeOptions {
  id: number;
  solution: string;
  itemBoxes: readonly ReviewBox[];
  /** The boxes the tracks are interpolated from: the item's, or a deferred copy of them. */
  pathBoxes: readonly ReviewBox[];
  /** The clip's frame rate; 0 while unknown (then nothing is interpolated). */
  fps: number;
  paused: boolean;
  timeMs: number;
  /** The analysed frame paused on, if any. */
  analysed: DrawTarget | null;
  /** The nearest analysed frame's boxes. */
  frameBoxes: readonly ReviewBox[];
}

export function useKeyframes(o: KeyframeOptions) {
  const { api } = useApiHandle();
  const { id, solution, itemBoxes, fps } = o;
  const [track, setTrack] = useState<number | null>(null);
  const [forItem, setForItem] = useState(id);
  if (forItem !== id) {
    setForItem(id);
    setTrack(null);
  }
  const { pathBoxes } = o;
  // Built when first needed (paused between analysed frames, or playing), not when the clip opens.
  const paths = useMemo(() => {
    let built: TrackPath[] | undefined;
    return () => (built ??= trackPaths(pathBoxes, fps));
  }, [pathBoxes, fps]);
  const frame = frameAt(o.timeMs, fps);
  const between =
    o.paused && fps > 0
      ? { frameIndex: frame, keyframe: true as const, timeMs: timeOfFrame(frame, fps) }
      : null;
  const target: DrawTarget | null = o.analysed ?? between;
  // Paused on an analysed frame its stored boxes are what the model saw and a person edits (a
  // deleted box is gone there, not replaced by its track's interpolation); between, the tracks.
  const shown: readonly ShownBox[] = useMemo(
    () =>
      o.paused && between && !o.analysed
        ? boxesAt(o.frameBoxes, paths(), o.timeMs, fps)
        : o.frameBoxes,
    [o.paused, o.analysed, o.frameBoxes, paths, o.timeMs, fps, between !== null],
  );
  /** While playing: the boxes at the frame on screen (for the overlay). */
  const playingAt = useCallback(
    (frameBoxes: readonly ReviewBox[], t: number) => boxesAt(frameBoxes, paths(), t, fps),
    [paths, fps],
  );

  const save = (edits: ReviewEdits, trackId: number, bbox: NormBox, label: string) => {
    if (!target) return;
    const input = { id, solution, trackId, ...target, timeMs: target.timeMs ?? 0, label, bbox };
    void edits.recorded('keyframe', () => api.call('review.addKeyframe', input));
  };
  const hasBoxOnFrame = (trackId: number) =>
    itemBoxes.some(
      (b) => !b.deleted && b.trackId === trackId && target !== null && samePlace(b, target),
    );
  const byKey = new Map(shown.map((b) => [b.key, b]));

  const hooks: KeyframeHooks = {
    draw(bbox, label, edits) {
      if (!target) return false;
      if (track !== null && !hasBoxOnFrame(track)) {
        save(edits, track, bbox, label);
        return true;
      }
      if (target.keyframe !== true) return false;
      const fresh = itemBoxes.reduce((m, b) => Math.max(m, b.trackId ?? 0), 0) + 1;
      save(edits, fresh, bbox, label);
      setTrack(fresh);
      return true;
    },
    change(c: BoxChange, edits) {
      if (!target) return false;
      const off = target.keyframe === true;
      const mine = [...c.boxes].filter(([key]) => {
        const b = byKey.get(key);
        return b?.interpolated === true || (off && b?.trackId !== null);
      });
      for (const [key, bbox] of mine) {
        const b = byKey.get(key) as ShownBox;
        save(edits, b.trackId as number, bbox, b.label);
      }
      // Between analysed frames nothing else is edited: other boxes spring back.
      return mine.length > 0 || off;
    },
  };

  return {
    target,
    shown,
    playingAt,
    hooks,
    track,
    /** Follows the track of the box a person selects (kept when the selection clears). */
    follow: (trackId: number | null) => {
      if (trackId !== null && trackId !== track) setTrack(trackId);
    },
    newTrack: () => setTrack(null),
  };
}
