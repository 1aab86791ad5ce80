/**
 * Under the timeline: how many objects (tracks) of each class are in the picture over time, one
 * stepped line per class in its colour, with the playhead; a click seeks there. Drawn by uPlot on
 * a canvas (tens of thousands of points stay fast; it styles only through the CSSOM, which the
 * app's CSP allows). The legend is ordinary text beside it, so a screen reader reads it too.
 * The playhead is an element moved over the plot: redrawing tens of thousands of points on each
 * seek would cost the seek a few milliseconds for nothing.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CountsOverTime } from '@shared/clips/clip-events.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { chartColumns } from './chart-columns.js';
import type { ClipClock } from './clip-clock.js';
import { clockTime } from './clip-time.js';
import { themeColour } from './theme-colour.js';
import { timeEdges } from './timeline-axis.js';

interface CountChartProps {
  data: CountsOverTime;
  durationMs: number;
  clock: ClipClock;
  onSeek(timeMs: number): void;
}

const HEIGHT = 120;

/** The largest count (a loop: spreading a long clip's counts as arguments can overflow the stack). */
function peakOf(counts: readonly number[]): number {
  let peak = 0;
  // A comparison, not Math.max: a call per point costs in the cold code of a clip's opening.
  for (let i = 0; i < counts.length; i++)
    if ((counts[i] as number) > peak) peak = counts[i] as number;
  return peak;
}

function chartOptions(
  width: number,
  data: CountsOverTime,
  durationMs: number,
  max: number,
): uPlot.Options {
  const text = themeColour('--muted', '#5e6878');
  // On the timeline's time axis: the counts' axis takes the class names' column.
  const edges = timeEdges(width);
  const grid = themeColour('--border', '#d8dce2');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    padding: [8, width - edges.right, 0, 0],
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: false, range: [0, Math.max(1, durationMs / 1000)] },
      y: { range: [0, max + 1] },
    },
    axes: [
      {
        ...axis,
        // Whole seconds only: the labels read mm:ss, so half-second ticks would repeat.
        incrs: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600],
        values: (_u, ticks) => ticks.map((t) => clockTime(t * 1000)),
      },
      { ...axis, size: edges.left, space: 16, incrs: [1, 2, 5, 10, 20, 50, 100] },
    ],
    series: [
      {},
      ...data.series.map((s) => ({
        label: s.label,
        stroke: classColour(s.label),
        width: 2,
        points: { show: false },
        paths: uPlot.paths.stepped?.({ align: 1 }),
      })),
    ],
  };
}

/** The playhead at `timeMs`, in the plot area's CSS pixels. */
function movePlayhead(u: uPlot, line: HTMLElement, timeMs: number) {
  line.style.left = `${u.valToPos(timeMs / 1000, 'x')}px`;
}

export function CountChart({ data, durationMs, clock, onSeek }: CountChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const seek = useRef(onSeek);
  seek.current = onSeek;
  const [width, setWidth] = useState(0);
  const legendId = useId();
  const colours = useClassColours();

  // Each class's peak, read once: the legend says it and the y axis reaches the highest.
  const peaks = useMemo(
    () => data.series.map((s) => ({ label: s.label, peak: peakOf(s.counts) })),
    [data],
  );
  const max = peaks.reduce((m, p) => Math.max(m, p.peak), 1);

  // uPlot draws at a fixed size: follow the width the layout gives the chart.
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.floor(entry?.contentRect.width ?? 0)),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Before the browser paints: the plot shows in the same frame as the Events beside it, not a
  // frame after them (a passive effect of a deferred render may wait for the next one).
  useLayoutEffect(() => {
    const el = host.current;
    if (!el || width === 0 || data.series.length === 0) return;
    const aligned = chartColumns(data, durationMs, width) as uPlot.AlignedData;
    const u = new uPlot(chartOptions(width, data, durationMs, max), aligned, el);
    // The playhead follows the clock without a render: the element is moved where it is.
    const line = document.createElement('div');
    line.className = 'timeline-playhead';
    u.over.append(line);
    const follow = () => movePlayhead(u, line, clock.get());
    follow();
    const unfollow = clock.subscribe(follow);
    const onClick = () => {
      const left = u.cursor.left ?? -1;
      if (left >= 0) seek.current(Math.max(0, u.posToVal(left, 'x') * 1000));
    };
    u.over.addEventListener('click', onClick);
    return () => {
      unfollow();
      u.over.removeEventListener('click', onClick);
      u.destroy();
    };
  }, [data, max, width, durationMs, colours, clock]);

  return (
    <figure className="count-chart">
      <div ref={host} role="img" aria-label="Objects over time" aria-describedby={legendId} />
      <figcaption id={legendId} className="chart-legend">
        {peaks.length === 0 ? (
          <span className="muted small">No tracked objects to count.</span>
        ) : (
          peaks.map((p) => (
            <span key={p.label} className="chart-legend-item">
              <span
                className="class-swatch"
                aria-hidden="true"
                style={{ background: classColour(p.label) }}
              />
              {p.label}, up to {p.peak} at once
            </span>
          ))
        )}
      </figcaption>
    </figure>
  );
}
