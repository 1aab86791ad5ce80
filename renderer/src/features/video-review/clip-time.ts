/** A time in a clip as a person reads it on a clock: `m:ss` padded to `00:41`, `1:02:05` past an hour. */
export function clockTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** `00:00–00:41`, or one time when the range starts and ends in the same second. */
export function clockRange(startMs: number, endMs: number): string {
  const from = clockTime(startMs);
  const to = clockTime(endMs);
  return from === to ? from : `${from}–${to}`;
}
