/**
 * The area COCO ranges a truth box by: the `area` its COCO import gave it (a segmentation's, often
 * well under the box's), while the box is still the one imported; else undefined (its box's own).
 */
import type { NormBox } from '../../shared/geometry/box-math.js';
import { readKeptAnnotation } from '../import/coco-kept.js';

/** Within an export's rounding (0.01 px), the box is the one imported (as the COCO export judges). */
const near = (a: number, b: number) => Math.abs(a - b) <= 0.011;

export function truthArea(
  coco: string | null | undefined,
  bbox: NormBox,
  width: number,
  height: number,
): number | undefined {
  const kept = readKeptAnnotation(coco);
  if (!kept || typeof kept.area !== 'number' || !Number.isFinite(kept.area)) return undefined;
  const [x, y, w, h] = kept.bbox as [number, number, number, number];
  const bx = bbox.x * width;
  const by = bbox.y * height;
  const same =
    near(bx, x) &&
    near(by, y) &&
    near(bx + bbox.w * width, x + w) &&
    near(by + bbox.h * height, y + h);
  return same ? kept.area : undefined;
}
