/**
 * EXIF orientations 1–8. The library stores each file's own size (before orientation), while
 * boxes are normalised to the picture as displayed (after it). These map sizes, points and boxes
 * between the two spaces, in normalised coordinates of each.
 */
import type { NormBox, Size } from './box-math.js';

export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface Point {
  x: number;
  y: number;
}

/** A valid orientation, or 1 (what viewers assume) for anything else. */
export function asOrientation(value: number | null | undefined): Orientation {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 8
    ? (value as Orientation)
    : 1;
}

/** Orientations 5–8 turn the picture by 90°, so its displayed width is the file's height. */
export function swapsAxes(o: Orientation): boolean {
  return o >= 5;
}

export function displaySize(stored: Size, o: Orientation): Size {
  return swapsAxes(o) ? { width: stored.height, height: stored.width } : { ...stored };
}

/** Where a normalised point of the stored picture appears in the displayed one. */
export function storedToDisplayed(p: Point, o: Orientation): Point {
  switch (o) {
    case 1:
      return { x: p.x, y: p.y };
    case 2: // mirrored left-right
      return { x: 1 - p.x, y: p.y };
    case 3: // turned 180°
      return { x: 1 - p.x, y: 1 - p.y };
    case 4: // mirrored top-bottom
      return { x: p.x, y: 1 - p.y };
    case 5: // transposed (mirrored across the main diagonal)
      return { x: p.y, y: p.x };
    case 6: // turned 90° clockwise
      return { x: 1 - p.y, y: p.x };
    case 7: // transversed (mirrored across the other diagonal)
      return { x: 1 - p.y, y: 1 - p.x };
    case 8: // turned 90° counter-clockwise
      return { x: p.y, y: 1 - p.x };
  }
}

/** The inverse: 6 and 8 undo each other, every other orientation undoes itself. */
export function displayedToStored(p: Point, o: Orientation): Point {
  const inverse: Orientation = o === 6 ? 8 : o === 8 ? 6 : o;
  return storedToDisplayed(p, inverse);
}

function mapBox(box: NormBox, map: (p: Point) => Point): NormBox {
  const a = map({ x: box.x, y: box.y });
  const b = map({ x: box.x + box.w, y: box.y + box.h });
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y) };
}

export function boxStoredToDisplayed(box: NormBox, o: Orientation): NormBox {
  return mapBox(box, (p) => storedToDisplayed(p, o));
}

export function boxDisplayedToStored(box: NormBox, o: Orientation): NormBox {
  return mapBox(box, (p) => displayedToStored(p, o));
}
