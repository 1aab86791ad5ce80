/**
 * Box geometry for exports. Detections are normalised (0–1) to the EXIF-oriented analysed image,
 * while the library stores each file's own dimensions before orientation; every export format
 * wants pixels of the image as a viewer displays it, so the two are joined here and only here.
 */
import type { BoxXYWH } from '../store/store-types.js';

export interface Size {
  width: number;
  height: number;
}

/** Pixel box as corners, clamped to the image, plus the derived width/height. */
export interface PixelBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  width: number;
  height: number;
}

/** EXIF orientations 5–8 rotate by 90°, so a viewer shows the file's height as its width. */
export function swapsAxes(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}

/** The displayed (oriented) size of a file from its own size and EXIF orientation. */
export function displayedSize(width: number, height: number, orientation: number): Size {
  return swapsAxes(orientation) ? { width: height, height: width } : { width, height };
}

/**
 * The displayed size of a media file, falling back to the analysed size (already oriented)
 * when the library has not read the file's dimensions; null when neither is usable.
 */
export function mediaDisplayedSize(
  media: { width: number | null; height: number | null; orientation: number },
  analysed?: { analysedWidth: number; analysedHeight: number },
): Size | null {
  if (isPositive(media.width) && isPositive(media.height)) {
    return displayedSize(media.width, media.height, media.orientation);
  }
  if (analysed && isPositive(analysed.analysedWidth) && isPositive(analysed.analysedHeight)) {
    return { width: analysed.analysedWidth, height: analysed.analysedHeight };
  }
  return null;
}

export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  // + 0 turns -0 into 0 so "-0" never appears in text outputs.
  return Math.round(value * f) / f + 0;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * A normalised box in pixels of `size`. Corners are rounded (not x and w separately) so that
 * xmax never drifts past the image and adjacent boxes stay adjacent; then clamped to the image.
 * Null when the box is not finite or has no area left inside the image.
 */
export function toPixelBox(bbox: BoxXYWH, size: Size, decimals = 2): PixelBox | null {
  const { x, y, w, h } = bbox;
  // Tested one by one: an array per box is a million short-lived arrays in a large export.
  if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(w) && Number.isFinite(h)))
    return null;
  const xmin = roundTo(clamp(x * size.width, 0, size.width), decimals);
  const ymin = roundTo(clamp(y * size.height, 0, size.height), decimals);
  const xmax = roundTo(clamp((x + w) * size.width, 0, size.width), decimals);
  const ymax = roundTo(clamp((y + h) * size.height, 0, size.height), decimals);
  const width = roundTo(xmax - xmin, decimals);
  const height = roundTo(ymax - ymin, decimals);
  if (width <= 0 || height <= 0) return null;
  return { xmin, ymin, xmax, ymax, width, height };
}

/** YOLO's centre form, normalised and clamped to the image; null when nothing is left. */
export function toYoloBox(
  bbox: BoxXYWH,
  decimals = 6,
): { cx: number; cy: number; w: number; h: number } | null {
  const { x, y, w, h } = bbox;
  if (![x, y, w, h].every(Number.isFinite)) return null;
  const x0 = clamp(x, 0, 1);
  const y0 = clamp(y, 0, 1);
  const x1 = clamp(x + w, 0, 1);
  const y1 = clamp(y + h, 0, 1);
  if (x1 - x0 <= 0 || y1 - y0 <= 0) return null;
  return {
    cx: roundTo((x0 + x1) / 2, decimals),
    cy: roundTo((y0 + y1) / 2, decimals),
    w: roundTo(x1 - x0, decimals),
    h: roundTo(y1 - y0, decimals),
  };
}

function isPositive(n: number | null): n is number {
  return n !== null && Number.isFinite(n) && n > 0;
}
