/**
 * Normalised boxes (0–1 of the displayed, EXIF-oriented picture: what the service returns and what
 * overlays draw): overlap, clamping at the edges and equality. No DOM, no Node.
 */
import type { Box } from './box.js';

/** The one box (box.ts), by the name geometry code has always used. */
export type NormBox = Box;

export interface Size {
  width: number;
  height: number;
}

/** Intersection over union of two boxes; 0 when either has no area. */
export function iou(a: NormBox, b: NormBox): number {
  const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const iy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (ix <= 0 || iy <= 0) return 0;
  const inter = ix * iy;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The part of a box inside the picture, at least `minSize` wide and high (a box dragged past an
 * edge stops at it; one shrunk to nothing keeps a grabbable size). Null for non-finite input.
 */
export function clampBox(box: NormBox, minSize = 1e-4): NormBox | null {
  if (![box.x, box.y, box.w, box.h].every(Number.isFinite)) return null;
  // Already inside: returned as given (recomputing w from corners would add float noise).
  if (box.x >= 0 && box.y >= 0 && box.w >= minSize && box.h >= minSize) {
    if (box.x + box.w <= 1 && box.y + box.h <= 1) return { ...box };
  }
  const x0 = clamp(Math.min(box.x, box.x + box.w), 0, 1 - minSize);
  const y0 = clamp(Math.min(box.y, box.y + box.h), 0, 1 - minSize);
  const x1 = clamp(Math.max(box.x, box.x + box.w), x0 + minSize, 1);
  const y1 = clamp(Math.max(box.y, box.y + box.h), y0 + minSize, 1);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * Moves a box by (dx, dy) without changing its size, stopping at the picture's edges (a move
 * never resizes the box the way clamping its corners would).
 */
export function translateWithin(box: NormBox, dx: number, dy: number): NormBox {
  const w = Math.min(box.w, 1);
  const h = Math.min(box.h, 1);
  return { x: clamp(box.x + dx, 0, 1 - w), y: clamp(box.y + dy, 0, 1 - h), w, h };
}

/** Equal within `eps` on every side (stored floats of one box read back). */
export function sameBox(a: NormBox, b: NormBox, eps = 1e-9): boolean {
  return (
    Math.abs(a.x - b.x) <= eps &&
    Math.abs(a.y - b.y) <= eps &&
    Math.abs(a.w - b.w) <= eps &&
    Math.abs(a.h - b.h) <= eps
  );
}

/** A normalised box in pixels of `size` (no rounding: the caller rounds for its output). */
export function toPixels(box: NormBox, size: Size): NormBox {
  return {
    x: box.x * size.width,
    y: box.y * size.height,
    w: box.w * size.width,
    h: box.h * size.height,
  };
}

/** A pixel box of `size` back to normalised coordinates. */
export function fromPixels(box: NormBox, size: Size): NormBox {
  return {
    x: box.x / size.width,
    y: box.y / size.height,
    w: box.w / size.width,
    h: box.h / size.height,
  };
}
