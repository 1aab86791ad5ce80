/**
 * Tracks of a clip's boxes, so the video review can work on an object over time and MOT exports
 * carry stable ids: each class is tracked on its own (see sort-tracker.ts), then the tracks of
 * every class are numbered 1, 2, … in order of their first box (by frame, then from left to
 * right). Deterministic: the same boxes always get the same ids, whatever order they come in.
 * A box a person put in a track (merge, split) keeps that track's id: the tracker leaves it out,
 * and numbers its own tracks around the ids people chose.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { trackClass } from './sort-tracker.js';
import { trackerOptionsFor, type TrackerOptions } from './tracker-options.js';

export interface TrackInput {
  frameIndex: number;
  label: string;
  bbox: NormBox;
  /** A box a person drew, moved or accepted (its track is confirmed at once). */
  sure?: boolean;
  /** The track a person put the box in: kept as is. */
  pinned?: number | null;
  /** The model's confidence (absent: a sure box, or a caller that has none). */
  score?: number;
  /** Analysed frames per second of the clip (absent: unknown). */
  fps?: number;
}

/** The track id (from 1) of each box of `boxes`, in input order; null for a box in no track. */
export function assignTracks(
  boxes: readonly TrackInput[],
  options?: TrackerOptions,
): (number | null)[] {
  const settings = options ?? trackerOptionsFor(boxes.find((b) => b.fps !== undefined)?.fps);
  // The frames apart first, from a typed array: most comparisons end there (50,000 boxes: 800,000).
  const frameOf = Float64Array.from(boxes, (b) => b.frameIndex);
  const order = boxes
    .map((_, i) => i)
    .sort((a, b) => (frameOf[a] as number) - (frameOf[b] as number) || inFrameOrder(boxes, a, b));
  const ids = new Array<number | null>(boxes.length).fill(null);
  const chosen = new Set<number>();
  const byLabel = new Map<string, number[]>();
  for (const i of order) {
    const pinned = (boxes[i] as TrackInput).pinned;
    if (pinned !== undefined && pinned !== null) {
      ids[i] = pinned;
      chosen.add(pinned);
      continue;
    }
    const label = (boxes[i] as TrackInput).label;
    const list = byLabel.get(label);
    if (list) list.push(i);
    else byLabel.set(label, [i]);
  }
  const tracks: number[][] = [];
  for (const members of byLabel.values()) {
    const found = trackClass(
      members.map((i) => boxes[i] as TrackInput),
      settings,
    );
    for (const t of found) tracks.push(t.map((k) => members[k] as number));
  }
  // The position of each box in frame order ranks the tracks by their first box.
  const rank = new Int32Array(boxes.length);
  order.forEach((i, r) => (rank[i] = r));
  tracks.sort((a, b) => (rank[a[0] as number] as number) - (rank[b[0] as number] as number));
  let next = 1;
  for (const t of tracks) {
    while (chosen.has(next)) next++;
    const id = next++;
    for (const i of t) ids[i] = id;
  }
  return ids;
}

/** By frame; within a frame by position, so the order boxes are stored in never changes an id. */
function inFrameOrder(boxes: readonly TrackInput[], a: number, b: number): number {
  const p = boxes[a] as TrackInput;
  const q = boxes[b] as TrackInput;
  return (
    p.frameIndex - q.frameIndex ||
    p.bbox.x - q.bbox.x ||
    p.bbox.y - q.bbox.y ||
    p.bbox.w - q.bbox.w ||
    p.bbox.h - q.bbox.h ||
    (p.label < q.label ? -1 : p.label > q.label ? 1 : 0) ||
    a - b
  );
}
