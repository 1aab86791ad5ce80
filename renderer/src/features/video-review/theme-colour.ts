/**
 * A colour token of the theme (a custom property of `:root`, see base.css) for what a canvas
 * draws. Read while the page starts, when computing its style is cheap, and kept per colour
 * scheme: read as a clip's review opens, it forced the browser to compute the style of the whole
 * new review at that moment, in the middle of the opening.
 */
const kept = new Map<string, string>();
const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

export function themeColour(name: string, fallback: string): string {
  const key = `${dark?.matches ? 'dark' : 'light'} ${name}`;
  let value = kept.get(key);
  if (value === undefined && typeof document !== 'undefined') {
    value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    // Not kept before the styles are in (a later read finds it).
    if (value) kept.set(key, value);
  }
  return value || fallback;
}

/** The tokens the timeline and the count chart draw with. */
for (const name of ['--border', '--muted']) themeColour(name, '');
