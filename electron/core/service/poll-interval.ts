/**
 * Every wait a service asks for (pollIntervalMs, Retry-After) and every wait LabelDesk chooses
 * between two calls is kept in one range: never below MIN_WAIT_MS, so no loop calls a service
 * more than four times a second whatever it answers, and never above what a Node timer holds
 * (a longer setTimeout fires after 1 ms, with a warning: a flood instead of a wait).
 */

/** The floor of every wait between two calls to a service. */
export const MIN_WAIT_MS = 250;
/** The longest delay setTimeout honours (2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` inside [MIN_WAIT_MS, MAX_TIMER_MS]; a missing or non-finite wait is the floor. */
export function clampWait(ms: number): number {
  if (Number.isNaN(ms)) return MIN_WAIT_MS;
  return Math.round(Math.min(MAX_TIMER_MS, Math.max(MIN_WAIT_MS, ms)));
}

/** A delay setTimeout can hold (0 allowed: waiting for nothing is not a call). */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(MAX_TIMER_MS, ms);
}

export interface PollBounds {
  min: number;
  max: number;
}

/**
 * `pollIntervalMs` clamped to `[min, max]` of `catalog.limits.pollIntervalMs`, itself kept in
 * [MIN_WAIT_MS, MAX_TIMER_MS]. A missing, zero, negative or NaN hint means "no usable hint": wait
 * the minimum rather than spin; a huge one (even Infinity, which JSON's 1e999 parses to) waits
 * the maximum rather than stall forever. A maximum longer than a run holds is the caller's to
 * treat as a pause (see `askedWait`).
 */
export function clampPollInterval(value: number | null | undefined, bounds: PollBounds): number {
  const min = clampWait(Number.isFinite(bounds.min) ? bounds.min : 0);
  // A catalog with max < min would otherwise make every answer the (smaller) max.
  const max = Number.isFinite(bounds.max) ? Math.max(min, clampWait(bounds.max)) : min;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) return min;
  return Math.round(Math.min(max, Math.max(min, value)));
}

/**
 * The wait the service asks for within its own catalog's bounds, before the floor and the timer's
 * limit: what a person is told, and what decides whether a run waits at all (see video-task.ts).
 */
export function askedWait(value: number | null | undefined, bounds: PollBounds): number {
  const min = Number.isFinite(bounds.min) && bounds.min > 0 ? bounds.min : 0;
  const max = Number.isFinite(bounds.max) ? Math.max(min, bounds.max) : min;
  const hint = typeof value === 'number' && !Number.isNaN(value) && value > 0 ? value : min;
  return Math.min(max, Math.max(min, hint));
}
