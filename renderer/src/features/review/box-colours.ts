/**
 * A colour per class, stable across items and sessions. The solution's classes are spread around
 * the colour wheel by their index (golden-angle steps, so neighbours in the list differ most);
 * labels outside the solution (a person's own) take a hue from a hash of the name.
 */
import { useSyncExternalStore } from 'react';

const GOLDEN_ANGLE = 137.508;
const order = new Map<string, number>();
const cache = new Map<string, string>();
/** Bumped when the order changes, so what was drawn with the old colours draws again. */
let version = 0;
const listeners = new Set<() => void>();

/** The solution's classes, in the catalog's order (call when the solution changes). */
export function setClassOrder(classes: readonly string[]): void {
  if (classes.length === order.size && classes.every((c, i) => order.get(c) === i)) return;
  order.clear();
  cache.clear();
  classes.forEach((c, i) => order.set(c, i));
  version += 1;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * For components that colour by class while rendering: re-renders them (memoised rows too) when
 * the solution's classes arrive or change; the answer also serves as an effect dependency.
 */
export function useClassColours(): number {
  return useSyncExternalStore(subscribe, () => version);
}

function hashHue(label: string): number {
  let h = 2166136261;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
  return (h >>> 0) % 360;
}

export function classColour(label: string): string {
  let c = cache.get(label);
  if (c) return c;
  const index = order.get(label);
  const hue = index === undefined ? hashHue(label) : (index * GOLDEN_ANGLE + 40) % 360;
  // Light enough to read black label text on, saturated enough to see on photos.
  c = `hsl(${hue.toFixed(1)}, 85%, 62%)`;
  cache.set(label, c);
  return c;
}
