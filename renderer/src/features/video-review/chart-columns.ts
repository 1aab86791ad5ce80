/**
 * The count chart's points fitted to its width: a 2-hour clip has 7,200 analysed frames for a
 * chart under 1,000 pixels wide, so each pixel column keeps its busiest frame per class (as the
 * timeline's bars do). uPlot then draws a point per column, not eight, which is most of its cost.
 */
import type { CountsOverTime } from '@shared/clips/clip-events.js';

/** Seconds on x, then one row of counts per class; unchanged when it already fits `columns`. */
export function chartColumns(
  data: CountsOverTime,
  durationMs: number,
  columns: number,
): number[][] {
  const { timesMs, series } = data;
  const span = Math.max(1, durationMs, timesMs.at(-1) ?? 0);
  if (timesMs.length <= 2 * columns || columns < 1) {
    return [timesMs.map((t) => t / 1000), ...series.map((s) => [...s.counts])];
  }
  const xs: number[] = [];
  const counts = series.map((s) => s.counts);
  const rows = series.map(() => [] as number[]);
  // Plain loops: 7,200 frames of 4 classes as callbacks were most of this in cold code.
  let column = -1;
  for (let i = 0; i < timesMs.length; i++) {
    const t = timesMs[i] as number;
    const c = Math.min(columns - 1, Math.floor((t / span) * columns));
    const fresh = c !== column;
    if (fresh) {
      column = c;
      xs.push(t / 1000);
    }
    for (let s = 0; s < rows.length; s++) {
      const row = rows[s] as number[];
      const n = (counts[s] as readonly number[])[i] ?? 0;
      if (fresh) row.push(n);
      else if (n > (row[row.length - 1] as number)) row[row.length - 1] = n;
    }
  }
  return [xs, ...rows];
}
