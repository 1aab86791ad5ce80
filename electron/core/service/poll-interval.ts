/** How long to wait before the next job poll: the service's hint, kept inside the catalog's bounds. */

export interface PollBounds {
  min: number;
  max: number;
}

/**
 * `pollIntervalMs` clamped to `[min, max]` of `catalog.limits.pollIntervalMs`. A missing, zero,
 * negative or NaN hint means "no usable hint": wait the minimum rather than spin; a huge one (even
 * Infinity, which JSON's 1e999 parses to) waits the maximum rather than stall forever.
 */
export function clampPollInterval(value: number | null | undefined, bounds: PollBounds): number {
  const min = Number.isFinite(bounds.min) && bounds.min > 0 ? bounds.min : 0;
  // A catalog with max < min would otherwise make every answer the (smaller) max.
  const max = Number.isFinite(bounds.max) ? Math.max(min, bounds.max) : min;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) return min;
  return Math.round(Math.min(max, Math.max(min, value)));
}
