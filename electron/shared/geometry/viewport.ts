/**
 * The review stage's view of a picture: a scale and the screen position of the picture's top-left
 * corner. Fit to the window, zoom around a point (the cursor stays over the same pixel), and the
 * mapping between screen points and normalised picture coordinates. No DOM.
 */
import type { Size } from './box-math.js';
import type { Point } from './orientation.js';

export interface View {
  /** Screen pixels per picture pixel. */
  scale: number;
  /** Screen position of the picture's top-left corner. */
  offsetX: number;
  offsetY: number;
}

export const MIN_SCALE = 0.02;
export const MAX_SCALE = 32;

/** The whole picture, as large as the window allows, centred (scale may exceed 1 for small ones). */
export function fitToWindow(picture: Size, window: Size): View {
  if (picture.width <= 0 || picture.height <= 0) return { scale: 1, offsetX: 0, offsetY: 0 };
  const scale = Math.min(window.width / picture.width, window.height / picture.height);
  return {
    scale,
    offsetX: (window.width - picture.width * scale) / 2,
    offsetY: (window.height - picture.height * scale) / 2,
  };
}

/** 100 %: one picture pixel per screen pixel, centred in the window. */
export function actualSize(picture: Size, window: Size): View {
  return {
    scale: 1,
    offsetX: (window.width - picture.width) / 2,
    offsetY: (window.height - picture.height) / 2,
  };
}

/** Multiplies the scale by `factor` (clamped) keeping the picture point under `at` where it is. */
export function zoomAt(view: View, factor: number, at: Point): View {
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale * factor));
  const k = scale / view.scale;
  return {
    scale,
    offsetX: at.x - (at.x - view.offsetX) * k,
    offsetY: at.y - (at.y - view.offsetY) * k,
  };
}

export function pan(view: View, dx: number, dy: number): View {
  return { ...view, offsetX: view.offsetX + dx, offsetY: view.offsetY + dy };
}

/** A screen point as normalised picture coordinates (outside 0–1 when off the picture). */
export function screenToNormalised(view: View, picture: Size, p: Point): Point {
  return {
    x: (p.x - view.offsetX) / (view.scale * picture.width),
    y: (p.y - view.offsetY) / (view.scale * picture.height),
  };
}

export function normalisedToScreen(view: View, picture: Size, p: Point): Point {
  return {
    x: view.offsetX + p.x * picture.width * view.scale,
    y: view.offsetY + p.y * picture.height * view.scale,
  };
}
