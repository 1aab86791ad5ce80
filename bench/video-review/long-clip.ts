/**
 * The boxes of a long clip as a detector would give them, for the video review bench: objects of a
 * few classes enter, cross the picture at a steady pace with a little jitter and leave, about seven
 * in view at a time, sampled at 1 frame per second. Seeded: the same boxes every run.
 */
import type { NormBox } from '../../electron/shared/geometry/box-math.js';
import { seededRandom } from '../seeded-random.js';

export interface ClipBox {
  frameIndex: number;
  timeMs: number;
  label: string;
  score: number;
  bbox: NormBox;
}

export const LONG_CLIP_CLASSES = ['person', 'car', 'bicycle', 'dog'];

/** `boxes` boxes over `frames` samples, `periodMs` apart, in frame order. */
export function longClipBoxes(
  frames: number,
  boxes: number,
  periodMs: number,
  seed = 7,
): ClipBox[] {
  const r = seededRandom(seed);
  const out: ClipBox[] = [];
  // Objects live 20–300 samples; enough of them start that `boxes` boxes fill the clip.
  const meanLife = 160;
  const starts = Math.ceil(boxes / meanLife) + 8;
  for (let o = 0; o < starts; o++) {
    const first = Math.floor(r() * frames);
    const life = 20 + Math.floor(r() * 280);
    const label = LONG_CLIP_CLASSES[Math.floor(r() * r() * LONG_CLIP_CLASSES.length)] ?? 'person';
    const w = 0.04 + r() * 0.08;
    const h = label === 'person' ? w * 2.5 : w * 0.8;
    let x = r() * (1 - w);
    let y = r() * (1 - h);
    const vx = (r() - 0.5) * w * 0.4;
    const vy = (r() - 0.5) * h * 0.1;
    for (let f = first; f < Math.min(frames, first + life); f++) {
      x = Math.min(1 - w, Math.max(0, x + vx + (r() - 0.5) * w * 0.05));
      y = Math.min(1 - h, Math.max(0, y + vy + (r() - 0.5) * h * 0.05));
      out.push({
        frameIndex: f,
        timeMs: f * periodMs,
        label,
        score: 0.3 + r() * 0.69,
        bbox: { x, y, w, h },
      });
    }
  }
  out.sort((a, b) => a.frameIndex - b.frameIndex || a.bbox.x - b.bbox.x);
  // Exactly `boxes`: drop evenly spread boxes beyond it (a few missed detections).
  const extra = out.length - boxes;
  if (extra <= 0) return out;
  const step = out.length / extra;
  const drop = new Set(Array.from({ length: extra }, (_, i) => Math.floor(i * step)));
  return out.filter((_, i) => !drop.has(i));
}
