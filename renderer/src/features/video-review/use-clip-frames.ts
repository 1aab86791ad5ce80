/**
 * The clip's analysed frames: those with boxes, those between and after them at the sample period
 * (the model found nothing there, but a person may draw), and, for the visit, any whose last box
 * was deleted. Grouped once per version of the boxes; when only the clip's duration or frame rate
 * arrives (the playable answer, after the boxes) and the frames come out the same, the same array
 * is answered, so the timeline, the chart and the Events are not built again for nothing.
 */
import { useMemo, useRef } from 'react';
import {
  analysedFrames,
  emptyFrameTimes,
  gridMoves,
  samplePlan,
  withEmptyFrames,
  type AnalysedFrame,
} from './clip-frames.js';

interface Known {
  id: number;
  /** Every sample seen with boxes in this visit: index → time. */
  frames: Map<number, number>;
  /** The last answer, and what it was made of. */
  last?: {
    boxes: readonly unknown[];
    durationMs: number;
    fps: number;
    withBoxes: AnalysedFrame[];
    /** The frames without boxes (index → time). */
    empty: Map<number, number>;
    frames: AnalysedFrame[];
  };
}

function sameTimes(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [index, timeMs] of a) if (b.get(index) !== timeMs) return false;
  return true;
}

export function useClipFrames(
  id: number,
  boxes: AnalysedFrame['boxes'],
  durationMs: number,
  fps: number,
): AnalysedFrame[] {
  const known = useRef<Known>({ id, frames: new Map() });
  if (known.current.id !== id) known.current = { id, frames: new Map() };
  return useMemo(() => {
    const k = known.current;
    const same = k.last?.boxes === boxes;
    // Only the frame rate is new (it usually arrives after the boxes): is anything moved by it?
    if (k.last && same && k.last.durationMs === durationMs) {
      const moves = gridMoves(samplePlan(k.frames, durationMs), k.frames, k.last.fps, fps);
      k.last.fps = fps;
      if (!moves) return k.last.frames;
    }
    const withBoxes = same ? (k.last?.withBoxes ?? []) : analysedFrames(boxes);
    // Samples only: a keyframe's frame is no sample, and tells nothing of the sampling.
    if (!same) for (const f of withBoxes) if (!f.keyframe) k.frames.set(f.index, f.timeMs);
    const empty = emptyFrameTimes(k.frames, withBoxes, durationMs, fps);
    if (k.last && same && sameTimes(k.last.empty, empty)) return k.last.frames;
    const frames = withEmptyFrames(withBoxes, empty);
    k.last = { boxes, durationMs, fps, withBoxes, empty, frames };
    return frames;
  }, [boxes, durationMs, fps]);
}
