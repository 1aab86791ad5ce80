/**
 * SORT-style tracking of one class's boxes over a clip's analysed frames: each track carries a
 * constant-velocity Kalman filter; in every frame the tracks' predictions and the frame's boxes
 * are paired by minimum-cost assignment (IoU, or centre distance for near misses); a track is born
 * after `minHits` matched frames in a row (or at once from a box a person drew or accepted; one
 * not born yet ends at its first miss) and dies after `maxMisses` frames in a row without a box.
 * Offline, so a confirmed track keeps its first boxes too; boxes of tracks never confirmed (a
 * one- or two-frame false positive) belong to no track.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { minCostAssignment } from './hungarian.js';
import { DEFAULT_NOISE, KalmanBox, type KalmanNoise } from './kalman-box.js';
import { DEFAULT_GATE, matchCost, REFUSED, type MatchGate } from './match-cost.js';

export interface TrackerBox {
  /** The analysed (sampled) frame: consecutive analysed frames differ by 1. */
  frameIndex: number;
  bbox: NormBox;
  /** A box a person drew, moved or accepted: real, so its track needs no more evidence. */
  sure?: boolean;
}

export interface TrackerOptions {
  minHits: number;
  maxMisses: number;
  gate: MatchGate;
  noise: KalmanNoise;
}

export const DEFAULT_TRACKER: TrackerOptions = {
  minHits: 3,
  maxMisses: 3,
  gate: DEFAULT_GATE,
  noise: DEFAULT_NOISE,
};

interface Track {
  filter: KalmanBox;
  /** The frame the filter's estimate is for. */
  frame: number;
  lastHit: number;
  hits: number;
  confirmed: boolean;
  boxes: number[];
}

/**
 * The confirmed tracks of one class, each as the indexes of its boxes in frame order, listed in
 * order of their first box. `boxes` must be sorted by frame (ties keep their order).
 */
export function trackClass(
  boxes: readonly TrackerBox[],
  options: TrackerOptions = DEFAULT_TRACKER,
): number[][] {
  const done: Track[] = [];
  let live: Track[] = [];
  for (let start = 0; start < boxes.length;) {
    const frame = (boxes[start] as TrackerBox).frameIndex;
    let end = start + 1;
    while (end < boxes.length && (boxes[end] as TrackerBox).frameIndex === frame) end++;
    live = live.filter((t) => {
      const alive = frame - t.lastHit - 1 <= (t.confirmed ? options.maxMisses : 0);
      if (!alive && t.confirmed) done.push(t);
      return alive;
    });
    for (const t of live) {
      for (; t.frame < frame; t.frame++) t.filter.predict();
    }
    const cost = live.map((t) => {
      const predicted = t.filter.box();
      const spread = t.filter.centreSpread();
      const row: number[] = [];
      for (let b = start; b < end; b++) {
        row.push(matchCost(predicted, spread, (boxes[b] as TrackerBox).bbox, options.gate));
      }
      return row;
    });
    const matched = new Uint8Array(end - start);
    minCostAssignment(cost).forEach((col, ti) => {
      if (col < 0 || ((cost[ti] as number[])[col] as number) >= REFUSED) return;
      matched[col] = 1;
      hit(live[ti] as Track, start + col, boxes, options);
    });
    for (let b = start; b < end; b++) {
      if (matched[b - start]) continue;
      const box = boxes[b] as TrackerBox;
      const track: Track = {
        filter: new KalmanBox(box.bbox, options.noise),
        frame,
        lastHit: frame,
        hits: 1,
        confirmed: box.sure === true || options.minHits <= 1,
        boxes: [b],
      };
      live.push(track);
    }
    start = end;
  }
  done.push(...live.filter((t) => t.confirmed));
  return done.map((t) => t.boxes).sort((a, b) => (a[0] as number) - (b[0] as number));
}

function hit(
  track: Track,
  index: number,
  boxes: readonly TrackerBox[],
  options: TrackerOptions,
): void {
  const box = boxes[index] as TrackerBox;
  track.filter.update(box.bbox);
  track.lastHit = box.frameIndex;
  track.hits++;
  track.boxes.push(index);
  if (track.hits >= options.minHits || box.sure) track.confirmed = true;
}
