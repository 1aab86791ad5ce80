/**
 * Synthetic scenes for the tracking bench, with known trajectories: walkers of one class entering,
 * moving with a slowly turning velocity and leaving, and a detector that sees them with a small
 * error, misses some and invents a few. Each kind stresses one thing a tracker must survive:
 * `crossings` (walkers on shared lanes passing through each other), `occlusions` (runs of 1–3
 * missed frames), `jitter` (noisy boxes), `false-positives` (boxes where nothing is). Seeded, so
 * every run scores the same scenes.
 */
import type { NormBox } from '../../electron/shared/geometry/box-math.js';
import { seededRandom } from '../seeded-random.js';

export const SCENE_KINDS = ['crossings', 'occlusions', 'jitter', 'false-positives'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export interface TruthBox {
  frameIndex: number;
  id: number;
  bbox: NormBox;
}

export interface DetectedBox {
  frameIndex: number;
  label: string;
  bbox: NormBox;
}

export interface Scene {
  kind: SceneKind;
  objects: number;
  frames: number;
  truth: TruthBox[];
  detections: DetectedBox[];
}

/** Detector error of every kind; each kind then raises one of them. */
interface Errors {
  jitter: number;
  missRate: number;
  occlusionRate: number;
  falsePerFrame: number;
}

const BASE: Errors = { jitter: 0.03, missRate: 0.03, occlusionRate: 0, falsePerFrame: 0.3 };
const ERRORS: Record<SceneKind, Errors> = {
  crossings: BASE,
  occlusions: { ...BASE, occlusionRate: 0.08 },
  jitter: { ...BASE, jitter: 0.12 },
  'false-positives': { ...BASE, falsePerFrame: 4 },
};

export function makeScene(kind: SceneKind, objects: number, frames: number, seed: number): Scene {
  const rnd = seededRandom(seed);
  const errors = ERRORS[kind];
  const truth: TruthBox[] = [];
  for (let id = 1; id <= objects; id++) truth.push(...walk(kind, id, frames, rnd));
  const detections: DetectedBox[] = [];
  const occludedUntil = new Map<number, number>();
  for (const t of truth) {
    if ((occludedUntil.get(t.id) ?? -1) >= t.frameIndex) continue;
    if (rnd() < errors.occlusionRate) {
      occludedUntil.set(t.id, t.frameIndex + Math.floor(rnd() * 3));
      continue;
    }
    if (rnd() < errors.missRate) continue;
    detections.push({
      frameIndex: t.frameIndex,
      label: 'person',
      bbox: noisy(t.bbox, errors.jitter, rnd),
    });
  }
  for (let f = 0; f < frames; f++) {
    // Poisson-like count of invented boxes: a whole part, and one more with the fraction's odds.
    const n = Math.floor(errors.falsePerFrame) + (rnd() < errors.falsePerFrame % 1 ? 1 : 0);
    for (let k = 0; k < n; k++)
      detections.push({ frameIndex: f, label: 'person', bbox: anywhere(rnd) });
  }
  detections.sort((a, b) => a.frameIndex - b.frameIndex);
  return { kind, objects, frames, truth, detections };
}

/** One walker's true boxes: enters at a random frame, walks for a while, leaves or ends. */
function walk(kind: SceneKind, id: number, frames: number, rnd: () => number): TruthBox[] {
  const w = 0.03 + rnd() * 0.04;
  const h = w * (2.2 + rnd() * 0.8);
  const speed = w * (0.15 + rnd() * 0.45);
  let x: number;
  let y: number;
  let heading: number;
  if (kind === 'crossings') {
    // Four shared lanes, walked both ways: walkers of one lane pass through each other.
    const leftToRight = id % 2 === 0;
    x = leftToRight ? -w / 2 + rnd() * 0.2 : 1 - w / 2 - rnd() * 0.2;
    y = 0.15 + (Math.floor(rnd() * 4) / 4) * 0.7 + (rnd() - 0.5) * 0.02;
    heading = leftToRight ? 0 : Math.PI;
  } else {
    x = rnd() * (1 - w);
    y = rnd() * (1 - h);
    heading = rnd() * 2 * Math.PI;
  }
  const first = Math.floor(rnd() * frames * 0.6);
  const life = 30 + Math.floor(rnd() * 90);
  const out: TruthBox[] = [];
  for (let f = first; f < Math.min(frames, first + life); f++) {
    if (x + w < 0 || x > 1 || y + h < 0 || y > 1) break;
    out.push({ frameIndex: f, id, bbox: { x, y, w, h } });
    heading += kind === 'crossings' ? 0 : (rnd() - 0.5) * 0.15;
    x += Math.cos(heading) * speed;
    y += Math.sin(heading) * speed * 0.75;
  }
  return out;
}

function noisy(b: NormBox, jitter: number, rnd: () => number): NormBox {
  const n = () => (rnd() + rnd() + rnd() - 1.5) * 2 * jitter; // about ±jitter, centred
  const w = b.w * (1 + n());
  const h = b.h * (1 + n());
  return { x: b.x + b.w / 2 + n() * b.w - w / 2, y: b.y + b.h / 2 + n() * b.h - h / 2, w, h };
}

function anywhere(rnd: () => number): NormBox {
  const w = 0.03 + rnd() * 0.04;
  const h = w * (2.2 + rnd() * 0.8);
  return { x: rnd() * (1 - w), y: rnd() * (1 - h), w, h };
}
