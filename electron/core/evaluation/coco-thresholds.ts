/**
 * COCO's constants, computed the way its evaluation computes them (numpy's linspace: i·step +
 * start, the last one exact), so a box exactly on a threshold falls on the same side as in COCO.
 */
function linspace(start: number, stop: number, count: number): number[] {
  const step = (stop - start) / (count - 1);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? stop : i * step + start));
}

/** IoU 0.50, 0.55, …, 0.95; the first is the one the counts, curve and confusion use. */
export const IOU_THRESHOLDS: readonly number[] = linspace(0.5, 0.95, 10);

/** Recall 0, 0.01, …, 1: the 101 points precision is read at. */
export const RECALL_POINTS: readonly number[] = linspace(0, 1, 101);

/** At most this many model boxes per image and class take part, the highest-scoring ones. */
export const MAX_BOXES_PER_IMAGE = 100;
