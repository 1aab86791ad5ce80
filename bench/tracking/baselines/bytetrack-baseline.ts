/**
 * ByteTrack (Zhang et al.: "ByteTrack: Multi-Object Tracking by Associating Every Detection Box",
 * ECCV 2022), from the paper, as a baseline. Detections split by score: high (≥ τ_high) and low
 * (τ_low ≤ score < τ_high). Per frame: (1) tracked and lost tracks, predicted by a Kalman filter
 * on (cx, cy, aspect, height) with height-proportional noise (as DeepSORT sets it), are matched to
 * the high boxes by IoU (Hungarian, IoU ≥ 0.2); (2) the tracked ones left are matched to the low
 * boxes (IoU ≥ 0.5), the low boxes left are dropped as background, and tracks still unmatched are
 * lost; (3) tracks born last frame, not yet confirmed, match the high boxes left (IoU ≥ 0.3) or
 * die; (4) high boxes left with score ≥ τ_new start tracks. A lost track is kept for one second
 * (the paper's 30-frame buffer at 30 fps) and keeps its id when matched again.
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

export interface ByteSettings {
  high: number;
  low: number;
  /** Score a box needs to start a track (τ_high + 0.1 in the paper's code). */
  birth: number;
  /** Frames a lost track is kept. */
  buffer: number;
}

export const byteSettings = (fps: number, high = 0.6): ByteSettings => ({
  high,
  low: 0.1,
  birth: high + 0.1,
  buffer: Math.max(1, Math.round(fps)),
});

const POS = 1 / 20;
const VEL = 1 / 160;

const { F, H } = constantVelocity(4);

type State = 'new' | 'tracked' | 'lost';

interface ByteTrack extends BaselineTrack {
  state: State;
  lastFrame: number;
}

const measure = (c: Corners): number[] => {
  const [cx, cy, w, h] = centreSize(c);
  return [cx, cy, w / h, h];
};

function corners(kf: LinearKalman): Corners {
  const h = kf.get(3);
  return cornersAround(kf, kf.get(2) * h, h);
}

const sq = (v: number[]) => diag(v.map((s) => s * s));

function predict(t: ByteTrack): void {
  // A track not being tracked stops growing or shrinking (as ByteTrack does for lost tracks).
  if (t.state !== 'tracked') t.kf.setState(7, 0);
  const h = t.kf.get(3);
  t.kf.predict(sq([POS * h, POS * h, 1e-2, POS * h, VEL * h, VEL * h, 1e-5, VEL * h]));
}

function update(t: ByteTrack, z: number[], index: number, frame: number): void {
  const h = t.kf.get(3);
  t.kf.update(z, sq([POS * h, POS * h, 1e-1, POS * h]));
  t.state = 'tracked';
  t.lastFrame = frame;
  t.boxes.push(index);
}

export function byteTracks(boxes: readonly BaselineBox[], s: ByteSettings): (number | null)[] {
  return perLabel(boxes, (own) => byteClass(own, s));
}

function byteClass(boxes: readonly BaselineBox[], s: ByteSettings): (number | null)[] {
  const all: ByteTrack[] = [];
  let pool: ByteTrack[] = [];
  byFrame(boxes).forEach((frame, k) => {
    const score = (i: number) => (boxes[i] as BaselineBox).score;
    const high = frame.filter((i) => score(i) >= s.high);
    const low = frame.filter((i) => score(i) >= s.low && score(i) < s.high);
    const cornersOf = (list: number[]) =>
      list.map((i) => toCorners((boxes[i] as BaselineBox).bbox));
    const unconfirmed = pool.filter((t) => t.state === 'new');
    const active = pool.filter((t) => t.state !== 'new');
    for (const t of active) predict(t);
    // (1) Tracked and lost tracks with the high boxes.
    const highC = cornersOf(high);
    const first = matchByIou(
      active.map((t) => corners(t.kf)),
      highC,
      0.2,
    );
    for (const [t, d] of first.pairs)
      update(active[t] as ByteTrack, measure(highC[d] as Corners), high[d] as number, k);
    // (2) Tracked ones left with the low boxes.
    const left = first.freeTracks
      .map((t) => active[t] as ByteTrack)
      .filter((t) => t.state === 'tracked');
    const lowC = cornersOf(low);
    const second = matchByIou(
      left.map((t) => corners(t.kf)),
      lowC,
      0.5,
    );
    for (const [t, d] of second.pairs)
      update(left[t] as ByteTrack, measure(lowC[d] as Corners), low[d] as number, k);
    for (const t of second.freeTracks) (left[t] as ByteTrack).state = 'lost';
    // (3) Last frame's newborns with the high boxes left.
    const rest = first.freeDets.map((d) => high[d] as number);
    const restC = cornersOf(rest);
    const third = matchByIou(
      unconfirmed.map((t) => corners(t.kf)),
      restC,
      0.3,
    );
    for (const [t, d] of third.pairs) {
      const track = unconfirmed[t] as ByteTrack;
      update(track, measure(restC[d] as Corners), rest[d] as number, k);
      track.confirmed = true;
    }
    const dead = new Set(third.freeTracks.map((t) => unconfirmed[t] as ByteTrack));
    // (4) Births.
    const born: ByteTrack[] = [];
    for (const d of third.freeDets) {
      const i = rest[d] as number;
      if (score(i) < s.birth) continue;
      const z = measure(restC[d] as Corners);
      const h = z[3] as number;
      const kf = new LinearKalman(
        column([...z, 0, 0, 0, 0]),
        sq([
          2 * POS * h,
          2 * POS * h,
          1e-2,
          2 * POS * h,
          10 * VEL * h,
          10 * VEL * h,
          1e-5,
          10 * VEL * h,
        ]),
        F,
        H,
      );
      const track: ByteTrack = { kf, state: 'new', lastFrame: k, confirmed: k === 0, boxes: [i] };
      if (track.confirmed) track.state = 'tracked';
      born.push(track);
      all.push(track);
    }
    pool = [
      ...pool.filter((t) => !dead.has(t) && !(t.state === 'lost' && k - t.lastFrame > s.buffer)),
      ...born,
    ];
  });
  return idsOf(boxes.length, all);
}
