/**
 * Harder synthetic scenes for the tracking bench (issue 28), with known trajectories, on a
 * 640×480 picture over 30 s, simulated every 0.1 s and sampled at 1, 5 or 10 fps as the app
 * samples a clip. The detector is imperfect as real ones are: small box errors, misses, 0.5–1
 * false boxes per frame, and scores, with low-score boxes (down to 0.05) for partly hidden
 * objects and for most false boxes (what ByteTrack's second stage feeds on). Kinds:
 * - `fast-movers`: 18–34 px per sampled frame at 5 fps (90–170 px/s);
 * - `crossings`: walkers on four shared lanes, both ways, passing through each other;
 * - `occlusions`: runs of 1–4 sampled frames hidden, starting at 9 % of frames;
 * - `crowd`: 60 walkers with abrupt turns, bouncing off the picture's edges, 1 false box a frame;
 * - `small-objects`: 30–70 px boxes.
 * Seeded: every run scores the same scenes.
 */
import type { NormBox } from '../../electron/shared/geometry/box-math.js';
import { seededRandom } from '../seeded-random.js';

export const HARD_KINDS = [
  'fast-movers',
  'crossings',
  'occlusions',
  'crowd',
  'small-objects',
] as const;
export type HardKind = (typeof HARD_KINDS)[number];
export const SAMPLE_RATES = [1, 5, 10] as const;

export interface ScoredBox {
  frameIndex: number;
  label: string;
  score: number;
  bbox: NormBox;
}

export interface HardScene {
  kind: HardKind;
  fps: number;
  objects: number;
  frames: number;
  truth: { frameIndex: number; id: number; bbox: NormBox }[];
  detections: ScoredBox[];
}

const W = 640;
const H = 480;
const SECONDS = 30;
const TICKS_PER_SECOND = 10;

interface Kind {
  objects: number;
  /** Speed range, px/s. */
  speed: [number, number];
  /** Box width range, px; height is width × aspect. */
  width: [number, number];
  aspect: [number, number];
  occlusionStart: number;
  falsePerFrame: number;
  /** Chance per second of an abrupt turn (60–180°). */
  turnsPerSecond: number;
  bounce: boolean;
  lanes: boolean;
}

const BASE: Kind = {
  objects: 25,
  speed: [15, 60],
  width: [20, 45],
  aspect: [2.2, 3],
  occlusionStart: 0.02,
  falsePerFrame: 0.5,
  turnsPerSecond: 0,
  bounce: false,
  lanes: false,
};

const KINDS: Record<HardKind, Kind> = {
  'fast-movers': { ...BASE, objects: 20, speed: [90, 170] },
  crossings: { ...BASE, objects: 30, lanes: true },
  occlusions: { ...BASE, objects: 25, occlusionStart: 0.09 },
  crowd: {
    ...BASE,
    objects: 60,
    speed: [20, 80],
    turnsPerSecond: 0.15,
    bounce: true,
    falsePerFrame: 1,
  },
  'small-objects': { ...BASE, objects: 30, width: [30, 70], aspect: [0.6, 1.2], speed: [15, 70] },
};

export function makeHardScene(kind: HardKind, fps: number, seed: number): HardScene {
  const rnd = seededRandom(seed);
  const k = KINDS[kind];
  const step = TICKS_PER_SECOND / fps;
  const frames = SECONDS * fps;
  const truth: HardScene['truth'] = [];
  for (let id = 1; id <= k.objects; id++) {
    for (const [tick, bbox] of walk(k, id, rnd)) {
      if (tick % step === 0) truth.push({ frameIndex: tick / step, id, bbox });
    }
  }
  truth.sort((a, b) => a.frameIndex - b.frameIndex || a.id - b.id);
  return {
    kind,
    fps,
    objects: k.objects,
    frames,
    truth,
    detections: detect(truth, k, frames, rnd),
  };
}

/** One object's true boxes, by simulation tick (normalised). */
function walk(k: Kind, id: number, rnd: () => number): [number, NormBox][] {
  const between = ([lo, hi]: [number, number]) => lo + rnd() * (hi - lo);
  const w = between(k.width);
  const h = Math.min(H * 0.6, w * between(k.aspect));
  const speed = between(k.speed) / TICKS_PER_SECOND;
  let x: number;
  let y: number;
  let heading: number;
  if (k.lanes) {
    const leftToRight = id % 2 === 0;
    x = leftToRight ? -w / 2 + rnd() * 100 : W - w / 2 - rnd() * 100;
    y = 40 + Math.floor(rnd() * 4) * 100 + (rnd() - 0.5) * 10;
    heading = leftToRight ? 0 : Math.PI;
  } else {
    x = rnd() * (W - w);
    y = rnd() * (H - h);
    heading = rnd() * 2 * Math.PI;
  }
  const ticks = SECONDS * TICKS_PER_SECOND;
  const first = Math.floor(rnd() * ticks * 0.5);
  const life = Math.floor((8 + rnd() * 22) * TICKS_PER_SECOND);
  const out: [number, NormBox][] = [];
  for (let t = first; t < Math.min(ticks, first + life); t++) {
    if (x + w < 0 || x > W || y + h < 0 || y > H) break;
    out.push([t, { x: x / W, y: y / H, w: w / W, h: h / H }]);
    if (!k.lanes) heading += (rnd() - 0.5) * 0.1;
    if (rnd() < k.turnsPerSecond / TICKS_PER_SECOND) {
      heading += (rnd() < 0.5 ? -1 : 1) * (Math.PI / 3 + rnd() * ((2 * Math.PI) / 3));
    }
    let vx = Math.cos(heading) * speed;
    let vy = Math.sin(heading) * speed;
    if (k.bounce && (x + vx < 0 || x + w + vx > W)) vx = -vx;
    if (k.bounce && (y + vy < 0 || y + h + vy > H)) vy = -vy;
    heading = Math.atan2(vy, vx);
    x += vx;
    y += vy;
  }
  return out;
}

function detect(
  truth: HardScene['truth'],
  k: Kind,
  frames: number,
  rnd: () => number,
): ScoredBox[] {
  const out: ScoredBox[] = [];
  const hiddenUntil = new Map<number, number>();
  const box = (frameIndex: number, score: number, bbox: NormBox) =>
    out.push({ frameIndex, label: 'person', score, bbox });
  for (const t of truth) {
    const hidden = (hiddenUntil.get(t.id) ?? -1) >= t.frameIndex;
    if (!hidden && rnd() < k.occlusionStart) {
      hiddenUntil.set(t.id, t.frameIndex + Math.floor(rnd() * 4));
    }
    if ((hiddenUntil.get(t.id) ?? -1) >= t.frameIndex) {
      // Mostly hidden: now and then a weak, poorly placed box.
      if (rnd() < 0.3) box(t.frameIndex, 0.05 + rnd() * 0.3, noisy(t.bbox, 0.1, rnd));
      continue;
    }
    const r = rnd();
    if (r < 0.03) continue;
    if (r < 0.13) box(t.frameIndex, 0.1 + rnd() * 0.35, noisy(t.bbox, 0.07, rnd));
    else box(t.frameIndex, 0.5 + rnd() * 0.48, noisy(t.bbox, 0.04, rnd));
  }
  for (let f = 0; f < frames; f++) {
    const n = Math.floor(k.falsePerFrame) + (rnd() < k.falsePerFrame % 1 ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const score = rnd() < 0.8 ? 0.05 + rnd() * 0.4 : 0.45 + rnd() * 0.25;
      box(f, score, anywhere(k, rnd));
    }
  }
  return out.sort((a, b) => a.frameIndex - b.frameIndex);
}

function noisy(b: NormBox, jitter: number, rnd: () => number): NormBox {
  const n = () => (rnd() + rnd() + rnd() - 1.5) * 2 * jitter;
  const w = b.w * (1 + n());
  const h = b.h * (1 + n());
  return { x: b.x + b.w / 2 + n() * b.w - w / 2, y: b.y + b.h / 2 + n() * b.h - h / 2, w, h };
}

function anywhere(k: Kind, rnd: () => number): NormBox {
  const w = k.width[0] + rnd() * (k.width[1] - k.width[0]);
  const h = Math.min(H * 0.6, w * (k.aspect[0] + rnd() * (k.aspect[1] - k.aspect[0])));
  return { x: (rnd() * (W - w)) / W, y: (rnd() * (H - h)) / H, w: w / W, h: h / H };
}
