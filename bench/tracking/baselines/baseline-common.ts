/**
 * What the SORT and ByteTrack baselines share: boxes in pixels (their published noise settings
 * are in pixels; the bench's picture is 640×480), frames in order, and IoU matching by minimum-cost
 * assignment with a floor on the IoU, as both papers match.
 */
import { minCostAssignment } from '../../../electron/core/tracking/hungarian.js';
import { iou, type NormBox } from '../../../electron/shared/geometry/box-math.js';
import type { LinearKalman } from './small-matrix.js';

export const PICTURE = { width: 640, height: 480 };

export interface BaselineBox {
  frameIndex: number;
  label: string;
  score: number;
  bbox: NormBox;
}

/** Pixel (x1, y1, x2, y2). */
export type Corners = [number, number, number, number];

export const toCorners = (b: NormBox): Corners => [
  b.x * PICTURE.width,
  b.y * PICTURE.height,
  (b.x + b.w) * PICTURE.width,
  (b.y + b.h) * PICTURE.height,
];

/** A track of either baseline: its Kalman filter, whether it was output, and its boxes. */
export interface BaselineTrack {
  kf: LinearKalman;
  confirmed: boolean;
  boxes: number[];
}

/** Centre, width and height of pixel corners (both baselines measure from these). */
export function centreSize([x1, y1, x2, y2]: Corners): [number, number, number, number] {
  const w = x2 - x1;
  const h = y2 - y1;
  return [x1 + w / 2, y1 + h / 2, w, h];
}

/** Pixel corners of the box of centre (`kf` state 0 and 1), width `w` and height `h`. */
export const cornersAround = (kf: LinearKalman, w: number, h: number): Corners => [
  kf.get(0) - w / 2,
  kf.get(1) - h / 2,
  kf.get(0) + w / 2,
  kf.get(1) + h / 2,
];

const toNorm = ([x1, y1, x2, y2]: Corners): NormBox => ({
  x: x1 / PICTURE.width,
  y: y1 / PICTURE.height,
  w: (x2 - x1) / PICTURE.width,
  h: (y2 - y1) / PICTURE.height,
});

/** Indexes of `boxes` per frame, frames ascending (every frame from the first to the last). */
export function byFrame(boxes: readonly BaselineBox[]): number[][] {
  if (boxes.length === 0) return [];
  const first = Math.min(...boxes.map((b) => b.frameIndex));
  const last = Math.max(...boxes.map((b) => b.frameIndex));
  const out: number[][] = Array.from({ length: last - first + 1 }, () => []);
  boxes.forEach((b, i) => (out[b.frameIndex - first] as number[]).push(i));
  return out;
}

/** Pairs (track, detection) with IoU ≥ minIou maximising total IoU; the rest unmatched. */
export function matchByIou(
  tracks: readonly Corners[],
  dets: readonly Corners[],
  minIou: number,
): { pairs: [number, number][]; freeTracks: number[]; freeDets: number[] } {
  const cost = tracks.map((t) => dets.map((d) => 1 - iou(toNorm(t), toNorm(d))));
  const pairs: [number, number][] = [];
  const usedT = new Uint8Array(tracks.length);
  const usedD = new Uint8Array(dets.length);
  minCostAssignment(cost).forEach((d, t) => {
    if (d < 0 || ((cost[t] as number[])[d] as number) > 1 - minIou) return;
    pairs.push([t, d]);
    usedT[t] = 1;
    usedD[d] = 1;
  });
  const free = (used: Uint8Array) => [...used.keys()].filter((i) => !used[i]);
  return { pairs, freeTracks: free(usedT), freeDets: free(usedD) };
}

/**
 * Ids in input order from each track's boxes: only tracks the baseline confirmed are output, and
 * (offline, as LabelDesk's tracker is scored) with all their boxes, including those before
 * confirmation. Ids 1, 2, … in order of each track's first box.
 */
export function idsOf(
  count: number,
  tracks: readonly { boxes: number[]; confirmed: boolean }[],
): (number | null)[] {
  const ids = new Array<number | null>(count).fill(null);
  let next = 1;
  for (const t of tracks) {
    if (!t.confirmed) continue;
    const id = next++;
    for (const i of t.boxes) ids[i] = id;
  }
  return ids;
}

/** Runs `track` on each label's boxes apart, as both baselines track one class at a time. */
export function perLabel(
  boxes: readonly BaselineBox[],
  track: (boxes: readonly BaselineBox[]) => (number | null)[],
): (number | null)[] {
  const out = new Array<number | null>(boxes.length).fill(null);
  const labels = [...new Set(boxes.map((b) => b.label))];
  let offset = 0;
  for (const label of labels) {
    const members = boxes.flatMap((b, i) => (b.label === label ? [i] : []));
    const ids = track(members.map((i) => boxes[i] as BaselineBox));
    let top = 0;
    ids.forEach((id, k) => {
      if (id === null) return;
      out[members[k] as number] = id + offset;
      top = Math.max(top, id);
    });
    offset += top;
  }
  return out;
}
