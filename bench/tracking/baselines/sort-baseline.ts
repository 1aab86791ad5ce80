/**
 * SORT (Bewley, Ge, Ott, Ramos, Upcroft: "Simple Online and Realtime Tracking", ICIP 2016), from
 * the paper, as a baseline: a constant-velocity Kalman filter on [cx, cy, s, r] (s the area, r the
 * aspect ratio, taken as constant), predicted boxes matched to the frame's detections by the
 * Hungarian method on IoU (pairs below IoU_min = 0.3 refused), a track for every unmatched
 * detection, output once it has `minHits` hits in a row, deleted after `maxAge` frames unmatched.
 * Noise settings as SORT's published implementation sets them (pixels). Detections under
 * `minScore` are dropped first, as SORT's detector threshold does.
 */
import {
  byFrame,
  centreSize,
  cornersAround,
  idsOf,
  matchByIou,
  perLabel,
  toCorners,
  type BaselineBox,
  type BaselineTrack,
  type Corners,
} from './baseline-common.js';
import { column, constantVelocity, diag, LinearKalman } from './small-matrix.js';

export interface SortSettings {
  minScore: number;
  minHits: number;
  maxAge: number;
}

export const SORT_SETTINGS: SortSettings[] = [0.3, 0.5].flatMap((minScore) =>
  [1, 3].flatMap((minHits) => [1, 3, 6].map((maxAge) => ({ minScore, minHits, maxAge }))),
);

const { F, H } = constantVelocity(4, 3);
const Q = diag([1, 1, 1, 1, 0.01, 0.01, 0.0001]);
const R = diag([1, 1, 10, 10]);

interface SortTrack extends BaselineTrack {
  sinceUpdate: number;
  streak: number;
}

const measure = (c: Corners): number[] => {
  const [cx, cy, w, h] = centreSize(c);
  return [cx, cy, w * h, w / h];
};

function corners(kf: LinearKalman): Corners {
  const s = Math.max(1e-6, kf.get(2));
  const w = Math.sqrt(s * kf.get(3));
  return cornersAround(kf, w, s / w);
}

export function sortTracks(
  boxes: readonly BaselineBox[],
  settings: SortSettings,
): (number | null)[] {
  return perLabel(boxes, (own) => sortClass(own, settings));
}

function sortClass(boxes: readonly BaselineBox[], o: SortSettings): (number | null)[] {
  const all: SortTrack[] = [];
  let live: SortTrack[] = [];
  byFrame(boxes).forEach((frame, k) => {
    const dets = frame.filter((i) => (boxes[i] as BaselineBox).score >= o.minScore);
    for (const t of live) {
      // A box whose area would turn negative stops shrinking (as SORT does).
      if (t.kf.get(2) + t.kf.get(6) <= 0) t.kf.setState(6, 0);
      t.kf.predict(Q);
      if (t.sinceUpdate > 0) t.streak = 0;
      t.sinceUpdate++;
    }
    const detCorners = dets.map((i) => toCorners((boxes[i] as BaselineBox).bbox));
    const { pairs, freeDets } = matchByIou(
      live.map((t) => corners(t.kf)),
      detCorners,
      0.3,
    );
    for (const [t, d] of pairs) {
      const track = live[t] as SortTrack;
      track.kf.update(measure(detCorners[d] as Corners), R);
      track.sinceUpdate = 0;
      track.streak++;
      track.boxes.push(dets[d] as number);
      if (track.streak >= o.minHits || k < o.minHits) track.confirmed = true;
    }
    for (const d of freeDets) {
      const z = measure(detCorners[d] as Corners);
      const kf = new LinearKalman(
        column([...z, 0, 0, 0]),
        diag([10, 10, 10, 10, 10000, 10000, 10000]),
        F,
        H,
      );
      const track = { kf, sinceUpdate: 0, streak: 1, confirmed: false, boxes: [dets[d] as number] };
      track.confirmed = o.minHits <= 1 || k < o.minHits;
      live.push(track);
      all.push(track);
    }
    live = live.filter((t) => t.sinceUpdate <= o.maxAge);
  });
  return idsOf(boxes.length, all);
}
