/**
 * The clip's time axis, shared by the timeline, the track band and the count chart so that their
 * bars, bands and playheads line up: a column of class names on the left, then the time, to a
 * short gutter on the right where the chart's last time label ends. In the units of a box
 * `WIDTH` wide; the pixel positions scale with the width shown.
 */
export const WIDTH = 1000;
/** 120 keeps "sports ball" whole at 10 px where the review is narrowest (1280-wide window). */
export const LABEL_W = 120;
/** Half a time label ("00:10", ~20 px) at the narrowest: the chart's last one is not cut off. */
export const GUTTER_W = 40;

/** The left and right edges of the time, in a box `width` wide (units or pixels). */
export function timeEdges(width: number): { left: number; right: number } {
  return { left: (width * LABEL_W) / WIDTH, right: (width * (WIDTH - GUTTER_W)) / WIDTH };
}

/** Where `timeMs` is, in a box `width` wide, for a clip `spanMs` long. */
export function timeToX(timeMs: number, spanMs: number, width: number): number {
  const { left, right } = timeEdges(width);
  return left + ((right - left) * Math.min(Math.max(timeMs, 0), spanMs)) / spanMs;
}

/** The time at `x` (clamped to the clip), or null over the class names. */
export function xToTime(x: number, spanMs: number, width: number): number | null {
  const { left, right } = timeEdges(width);
  if (x < left) return null;
  return (Math.min(x - left, right - left) / (right - left)) * spanMs;
}
