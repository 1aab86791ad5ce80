/**
 * SORT-style tracking of one class's boxes over a clip's analysed frames, with ByteTrack's second
 * stage: each track carries a constant-velocity Kalman filter; in every frame the tracks'
 * predictions are first paired with the frame's confident boxes by minimum-cost assignment (IoU,
 * or centre distance for near misses), then the tracks left with its low-score boxes (a partly
 * hidden object scores low: such a box continues a track, never starts one). A track is born
 * after `minHits` matched frames in a row (or at once from a box a person drew or accepted; one
 * not born yet ends at its first miss) and ends after `maxMisses` frames in a row without a box.
 * The pieces are then re-linked across longer gaps (relink-tracklets.ts) before any is dropped.
 * Offline, so a confirmed track keeps its first boxes too; boxes of tracks never confirmed (a
 * one- or two-frame false positive) belong to no track.
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { gatedAssignment } from './hungarian.js';
import { KalmanBox } from './kalman-box.js';
import { matchCost, REFUSED, type MatchGate } from './match-cost.js';
import { relinkTracklets, type Tracklet } from './relink-tracklets.js';
import { DEFAULT_TRACKER, type TrackerOptions } from './tracker-options.js';

export { DEFAULT_TRACKER, type TrackerOptions } from './tracker-options.js';

export interface TrackerBox {
  /** The analysed (sampled) frame: consecutive analysed frames differ by 1. */
  frameIndex: number;
  bbox: NormBox;
  /** A box a person drew, moved or accepted: real, so its track needs no more evidence. */
  sure?: boolean;
  /** The model's confidence; absent: as sure as a confident box. */
  score?: number;
}

interface Track extends Tracklet {
  filter: KalmanBox;
  /** The frame the filter's estimate is for. */
  frame: number;
  hits: number;
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
  const confident = (b: TrackerBox) => b.score === undefined || b.score >= options.lowScore;
  for (let start = 0; start < boxes.length;) {
    const frame = (boxes[start] as TrackerBox).frameIndex;
    let end = start + 1;
    while (end < boxes.length && (boxes[end] as TrackerBox).frameIndex === frame) end++;
    live = live.filter((t) => {
      const alive = frame - t.lastHit - 1 <= (t.confirmed ? options.maxMisses : 0);
      if (!alive) done.push(t);
      return alive;
    });
    for (const t of live) {
      for (; t.frame < frame; t.frame++) t.filter.predict();
    }
    const frameBoxes = [];
    for (let b = start; b < end; b++) frameBoxes.push(b);
    const high = frameBoxes.filter((b) => confident(boxes[b] as TrackerBox));
    const low = frameBoxes.filter((b) => !confident(boxes[b] as TrackerBox));
    const left = associate(live, high, boxes, options.gate, options);
    // ByteTrack's second stage: a weak box may only continue a track seen on the frame before.
    const recent = left.tracks.filter((t) => t.lastHit === frame - 1);
    associate(recent, low, boxes, options.lowGate, options);
    for (const b of left.boxes) {
      const box = boxes[b] as TrackerBox;
      live.push({
        filter: new KalmanBox(box.bbox, options.noise),
        frame,
        firstHit: frame,
        lastHit: frame,
        hits: 1,
        confirmed: box.sure === true || options.minHits <= 1,
        boxes: [b],
      });
    }
    start = end;
  }
  done.push(...live);
  for (const t of done) t.velocity = t.filter.velocity();
  return relinkTracklets(done, boxes, options)
    .map((t) => t.boxes)
    .sort((a, b) => (a[0] as number) - (b[0] as number));
}

/** Pairs tracks with boxes; returns the tracks and boxes left unpaired. */
function associate(
  tracks: Track[],
  indexes: readonly number[],
  boxes: readonly TrackerBox[],
  gate: MatchGate,
  options: TrackerOptions,
): { tracks: Track[]; boxes: number[] } {
  if (tracks.length === 0 || indexes.length === 0) return { tracks, boxes: [...indexes] };
  const cost = tracks.map((t) => {
    const predicted = t.filter.box();
    const spread = t.filter.centreSpread();
    return indexes.map((b) => {
      const box = boxes[b] as TrackerBox;
      const c = matchCost(predicted, spread, box.bbox, gate);
      return c < REFUSED ? c + options.scoreWeight * (1 - (box.score ?? 1)) : c;
    });
  });
  const usedTrack = new Uint8Array(tracks.length);
  const usedBox = new Uint8Array(indexes.length);
  gatedAssignment(cost, (t, b) => ((cost[t] as number[])[b] as number) < REFUSED).forEach(
    (col, ti) => {
      if (col < 0) return;
      usedTrack[ti] = 1;
      usedBox[col] = 1;
      hit(tracks[ti] as Track, indexes[col] as number, boxes, options);
    },
  );
  return {
    tracks: tracks.filter((_, i) => !usedTrack[i]),
    boxes: indexes.filter((_, i) => !usedBox[i]),
  };
}

function hit(
  track: Track,
  index: number,
  boxes: readonly TrackerBox[],
  options: TrackerOptions,
): void {
  const box = boxes[index] as TrackerBox;
  // A weak box is often a poorly placed one (a partly hidden object): it moves the estimate less.
  const doubt = options.scoreTrust * (1 - (box.score ?? 1));
  track.filter.update(box.bbox, doubt > 1 ? 1 / doubt : 1);
  track.lastHit = box.frameIndex;
  track.hits++;
  track.boxes.push(index);
  if (track.hits >= options.minHits || box.sure) track.confirmed = true;
}
