/**
 * A time in a clip as a person reads it on a clock: `m:ss` padded to `00:41`, `1:02:05` past an
 * hour. Whole seconds are cut (a clock does not round up); with `tenths` (the Tracks list's
 * `00:01.2`) the time is rounded to the tenth.
 */
export function clockTime(ms: number, tenths: 0 | 1 = 0): string {
  const units = Math.max(0, tenths ? Math.round(ms / 100) : Math.floor(ms / 1000));
  const total = tenths ? Math.floor(units / 10) : units;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  const s = tenths ? `${two(total % 60)}.${units % 10}` : two(total % 60);
  return h > 0 ? `${h}:${two(m)}:${s}` : `${two(m)}:${s}`;
}

/** `00:00–00:41`, or one time when the range starts and ends in the same second. */
export function clockRange(startMs: number, endMs: number): string {
  const from = clockTime(startMs);
  const to = clockTime(endMs);
  return from === to ? from : `${from}–${to}`;
}
