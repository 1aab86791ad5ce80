/**
 * Greedy non-max suppression over a few hundred candidates. Plain JS is enough at this size and
 * avoids extra tensors and async reads per call.
 */
import type { NormalisedBox } from './engine-types.js';

export interface Candidate {
  classId: number;
  score: number;
  box: NormalisedBox;
}

export function iou(a: NormalisedBox, b: NormalisedBox): number {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/** Keeps the best-scoring boxes; a box is suppressed only by a better box of the same class. */
export function nonMaxSuppression<T extends Candidate>(
  candidates: readonly T[],
  iouThreshold: number,
  maxResults = 100,
): T[] {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  for (const c of sorted) {
    if (kept.length >= maxResults) break;
    if (kept.every((k) => k.classId !== c.classId || iou(k.box, c.box) <= iouThreshold))
      kept.push(c);
  }
  return kept;
}
