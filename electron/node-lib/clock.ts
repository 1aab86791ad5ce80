/**
 * The time hourly credit limits are counted in. LABELDESK_CLOCK_OFFSET_MS shifts it for a whole
 * process tree (the CLI and `labeldesk serve` started together by a test), so a test about the
 * hourly limit can place itself mid-hour instead of waiting out the wall clock near an hour's end.
 * It only moves this machine's own view of the hour; a hosted service keeps its own time.
 */
const offsetMs = Number(process.env.LABELDESK_CLOCK_OFFSET_MS ?? 0) || 0;

export function clockNow(): number {
  return Date.now() + offsetMs;
}
