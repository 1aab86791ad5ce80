/** Boxes as the viewer names and draws them. */
import type { Box } from '@shared/contract/index.js';
import type { Box as Rect } from '@shared/geometry/box.js';

/** "person 0.91": the option's name in the Boxes list. */
export function boxName(box: Pick<Box, 'label' | 'score'> & { crowd?: boolean }): string {
  if (box.crowd) return `${box.label} crowd region`;
  // A person's box has no score: its label alone.
  return box.score === null ? box.label : `${box.label} ${box.score.toFixed(2)}`;
}

/** A normalised bbox in pixels of a picture drawn `width × height`, clamped to it. */
export function boxRect(bbox: Box['bbox'], width: number, height: number): Rect {
  const x0 = Math.min(1, Math.max(0, bbox.x));
  const y0 = Math.min(1, Math.max(0, bbox.y));
  const x1 = Math.min(1, Math.max(0, bbox.x + bbox.w));
  const y1 = Math.min(1, Math.max(0, bbox.y + bbox.h));
  return { x: x0 * width, y: y0 * height, w: (x1 - x0) * width, h: (y1 - y0) * height };
}

/** The boxes of the analysed frame nearest to a clip's current time (all boxes for images). */
export function boxesAt(boxes: readonly Box[], timeMs: number | null): Box[] {
  if (timeMs === null) return [...boxes];
  let best: number | null = null;
  for (const b of boxes) {
    if (b.timeMs === null) continue;
    if (best === null || Math.abs(b.timeMs - timeMs) < Math.abs(best - timeMs)) best = b.timeMs;
  }
  return boxes.filter((b) => b.timeMs === best);
}
