/**
 * A colour token of the theme (a custom property of `:root`, see base.css), for what a canvas
 * draws. Read from the root element: its style is already computed, while reading it from an
 * element just mounted (the timeline's canvas, the chart's host) forced the browser to compute the
 * style of the whole new review at that moment, in the middle of the clip's opening.
 */
export function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}
