/**
 * The renderer's main-thread CPU time while the review opens, from a Chromium trace: wall-clock
 * figures on a loaded machine (other processes on both cores) say more about the load than the
 * app, while a thread's own CPU time (the trace's `tdur`) hardly moves with it. Summed over the
 * main thread's tasks between two `performance.mark`s the page makes (the part of a task outside
 * them counted pro rata).
 */
import type { Browser, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'toplevel',
];

/** Milliseconds of main-thread CPU between the marks `from` and `to` (NaN if either is missing). */
export function mainThreadCpuMs(events: readonly TraceEvent[], from: string, to: string): number {
  const start = events.find((e) => e.name === from);
  const end = events.find((e) => e.name === to);
  if (!start || !end) return NaN;
  // The marks are made on the page's main thread: its tasks are the ones on that thread.
  const onMain = (e: TraceEvent) => e.pid === start.pid && e.tid === start.tid;
  let ms = 0;
  for (const e of events) {
    if (!onMain(e) || e.ph !== 'X' || e.name !== 'RunTask' || !e.dur) continue;
    const overlap = Math.min(e.ts + e.dur, end.ts) - Math.max(e.ts, start.ts);
    if (overlap > 0) ms += ((e.tdur ?? 0) * overlap) / e.dur / 1000;
  }
  return ms;
}

/** Traces `page` while `act` runs; the trace's events. */
export async function traced(
  browser: Browser,
  page: Page,
  act: () => Promise<void>,
): Promise<TraceEvent[]> {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await act().catch(async (err: unknown) => {
    await browser.stopTracing();
    throw err;
  });
  const trace = await browser.stopTracing();
  return (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
}
