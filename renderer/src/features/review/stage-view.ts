/**
 * The stage's view math over electron/shared/geometry: wheel and key zoom around a point, what part
 * of the picture is on screen, the 8 resize handles and what dragging one does. Pure, no DOM.
 */
import { clampBox, type NormBox, type Size } from '@shared/geometry/box-math.js';
import type { Box } from '@shared/geometry/box.js';
import type { Point } from '@shared/geometry/orientation.js';
import { fitToWindow, screenToNormalised, zoomAt, type View } from '@shared/geometry/viewport.js';

/** One wheel notch (deltaY 100) zooms by about 16 %; trackpads send smaller deltas, zoom less. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-300, Math.min(300, px)) * 0.0015);
}

export const KEY_ZOOM = 1.25;

export function zoomByWheel(view: View, deltaY: number, deltaMode: number, at: Point): View {
  return zoomAt(view, wheelFactor(deltaY, deltaMode), at);
}

/** `+`/`-`: around the cursor when it is over the stage, else around the window's centre. */
export function zoomByKey(view: View, zoomIn: boolean, at: Point | null, window: Size): View {
  const centre = at ?? { x: window.width / 2, y: window.height / 2 };
  return zoomAt(view, zoomIn ? KEY_ZOOM : 1 / KEY_ZOOM, centre);
}

/** The one box's shape, in window pixels. */
export type Rect = Box;

/** The picture as drawn, in window pixels (may extend past the window when zoomed in). */
export function pictureRect(view: View, picture: Size): Rect {
  return {
    x: view.offsetX,
    y: view.offsetY,
    w: picture.width * view.scale,
    h: picture.height * view.scale,
  };
}

/** The part of the picture inside the window: the stage element's box (the whole picture when fitted). */
export function visiblePictureRect(view: View, picture: Size, window: Size): Rect {
  const r = pictureRect(view, picture);
  const x0 = Math.max(0, r.x);
  const y0 = Math.max(0, r.y);
  const x1 = Math.min(window.width, r.x + r.w);
  const y1 = Math.min(window.height, r.y + r.h);
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/** The window in normalised picture coordinates: boxes outside it are not drawn. */
export function visibleNormalised(view: View, picture: Size, window: Size): NormBox {
  const a = screenToNormalised(view, picture, { x: 0, y: 0 });
  const b = screenToNormalised(view, picture, { x: window.width, y: window.height });
  return { x: a.x, y: a.y, w: b.x - a.x, h: b.y - a.y };
}

export function isFitted(view: View, picture: Size, window: Size): boolean {
  const fit = fitToWindow(picture, window);
  return (
    Math.abs(fit.scale - view.scale) < 1e-9 &&
    Math.abs(fit.offsetX - view.offsetX) < 0.5 &&
    Math.abs(fit.offsetY - view.offsetY) < 0.5
  );
}

/** Handles by compass point; each moves the named sides of the box. */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/** The handle centres of a box drawn at `r` (screen pixels). */
export function handlePoints(r: Rect): Array<{ handle: Handle; x: number; y: number }> {
  const xs = { w: r.x, c: r.x + r.w / 2, e: r.x + r.w };
  const ys = { n: r.y, c: r.y + r.h / 2, s: r.y + r.h };
  return HANDLES.map((handle) => {
    const x = handle.includes('w') ? xs.w : handle.includes('e') ? xs.e : xs.c;
    const y = handle.includes('n') ? ys.n : handle.includes('s') ? ys.s : ys.c;
    return { handle, x, y };
  });
}

/** The handle within `radius` screen pixels of `p`, if any. */
export function handleAt(r: Rect, p: Point, radius: number): Handle | null {
  for (const h of handlePoints(r)) {
    if (Math.abs(h.x - p.x) <= radius && Math.abs(h.y - p.y) <= radius) return h.handle;
  }
  return null;
}

/** A box with the sides of `handle` moved by (dx, dy) normalised, kept inside the picture. */
export function resizeBox(box: NormBox, handle: Handle, dx: number, dy: number): NormBox {
  let x0 = box.x;
  let y0 = box.y;
  let x1 = box.x + box.w;
  let y1 = box.y + box.h;
  if (handle.includes('w')) x0 += dx;
  if (handle.includes('e')) x1 += dx;
  if (handle.includes('n')) y0 += dy;
  if (handle.includes('s')) y1 += dy;
  // Dragging a side past the other one flips the box rather than giving it a negative size.
  return clampBox({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }) ?? box;
}

/** The box spanned by two normalised points (a drag to draw), inside the picture. */
export function boxBetween(a: Point, b: Point): NormBox | null {
  return clampBox({ x: a.x, y: a.y, w: b.x - a.x, h: b.y - a.y });
}
