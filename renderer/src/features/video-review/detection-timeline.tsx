/**
 * Under the clip: one row per class with the count of its boxes over time, a strip marking the
 * frames a person reviewed, and the playhead; clicking seeks. Drawn on a canvas, binned to its
 * pixel columns (a column shows its busiest frame): a 2-hour clip sampled each second has 7,200
 * frames, which as SVG bars took a second to lay out and again on every move of the playhead.
 * The bars are drawn again only when the frames, the filter or the width change (before the
 * browser paints, so no frame shows an empty timeline); the playhead is a line moved over them,
 * the only part that follows the clip's clock.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useState, type MouseEvent } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { densityByClass, isReviewed, type AnalysedFrame, type DensityRow } from './clip-frames.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { useClockValue, type ClipClock } from './clip-clock.js';
import { themeColour } from './theme-colour.js';
import { timeEdges, timeToX, xToTime } from './timeline-axis.js';

interface TimelineProps {
  frames: readonly AnalysedFrame[];
  shown: (b: ReviewBox) => boolean;
  durationMs: number;
  clock: ClipClock;
  onSeek(timeMs: number): void;
}

const ROW = 14;

/** Per class (sorted by name), each frame's time and count of shown boxes. */
function useRows(frames: readonly AnalysedFrame[], shown: (b: ReviewBox) => boolean) {
  return useMemo(
    () => [...densityByClass(frames, shown)].sort((a, b) => a[0].localeCompare(b[0])),
    [frames, shown],
  );
}

/** The element's width in CSS pixels, followed as it resizes. */
function useWidth(el: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return width;
}

/** The playhead over the bars: `left` in CSS pixels at the clock's time. */
function Playhead(p: { clock: ClipClock; width: number; span: number }) {
  const { width, span } = p;
  const left = useClockValue(p.clock, (t) => timeToX(t, span, width));
  return <div className="timeline-playhead" style={{ left }} />;
}

export const DetectionTimeline = memo(function DetectionTimeline({
  frames,
  shown,
  durationMs,
  clock,
  onSeek,
}: TimelineProps) {
  const colours = useClassColours();
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const rows = useRows(frames, shown);
  const width = useWidth(canvas);
  const height = (rows.length + 1) * ROW + 4;
  const span = Math.max(1, durationMs);

  useLayoutEffect(() => {
    if (!canvas || width === 0) return;
    drawBars(canvas, { frames, rows, width, height, span });
    // How many frames the bars on the canvas show (set once drawn, not when rendered).
    canvas.dataset.bars = String(frames.length);
  }, [canvas, frames, rows, width, height, span, colours]);

  const labelPx = timeEdges(width).left;
  function seek(e: MouseEvent<HTMLCanvasElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    const at = xToTime(e.clientX - rect.left, span, rect.width);
    if (at !== null) onSeek(at);
  }
  return (
    <div className="detection-timeline-box" style={{ height }}>
      <canvas
        ref={setCanvas}
        className="detection-timeline"
        role="img"
        aria-label="Detections over time"
        data-label-width={labelPx}
        style={{ height }}
        onClick={seek}
      />
      {/* The row names as text over the canvas: a canvas's first text costs a font set-up that
          the page's own text has already paid. */}
      <div className="timeline-labels" aria-hidden="true" style={{ width: labelPx }}>
        {['reviewed', ...rows.map(([label]) => label)].map((label, i) => (
          <span key={`${i}-${label}`} style={{ top: i * ROW, height: ROW }}>
            {label}
          </span>
        ))}
      </div>
      <Playhead clock={clock} width={width} span={span} />
    </div>
  );
});

interface Layout {
  frames: readonly AnalysedFrame[];
  rows: ReadonlyArray<readonly [string, DensityRow]>;
  width: number;
  height: number;
  span: number;
}

/** Paints the bars. */
function drawBars(canvas: HTMLCanvasElement, l: Layout): void {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(l.width * dpr);
  canvas.height = Math.round(l.height * dpr);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, l.width, l.height);
  const { left: labelPx, right } = timeEdges(l.width);
  const columns = Math.max(1, Math.floor(right - labelPx));
  const column = (t: number) => Math.min(columns - 1, Math.floor((t / l.span) * columns));

  // Reviewed strip: a column is reviewed when every frame in it is.
  const pending = new Uint8Array(columns);
  const any = new Uint8Array(columns);
  for (let i = 0; i < l.frames.length; i++) {
    const f = l.frames[i] as AnalysedFrame;
    const c = column(f.timeMs);
    any[c] = 1;
    if (!isReviewed(f)) pending[c] = 1;
  }
  const reviewedColour = '#3fb950';
  const pendingColour = themeColour('--border', '#444');
  // One path per colour, filled once: a fill per bar made the bars a third of the timeline's cost.
  for (const [colour, wanted] of [
    [pendingColour, 1],
    [reviewedColour, 0],
  ] as const) {
    ctx.beginPath();
    for (let c = 0; c < columns; c++) {
      if (any[c] && pending[c] === wanted) ctx.rect(labelPx + c, 3, 1, ROW - 6);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  }

  let max = 1;
  for (const [, { counts }] of l.rows) {
    for (let i = 0; i < counts.length; i++)
      if ((counts[i] as number) > max) max = counts[i] as number;
  }
  l.rows.forEach(([label, { timesMs, counts }], i) => {
    const peak = new Uint16Array(columns);
    for (let j = 0; j < timesMs.length; j++) {
      const c = column(timesMs[j] as number);
      const n = counts[j] as number;
      if (n > (peak[c] as number)) peak[c] = n;
    }
    const base = (i + 2) * ROW - 1;
    ctx.beginPath();
    for (let c = 0; c < columns; c++) {
      const n = peak[c] as number;
      if (!n) continue;
      const h = Math.max(2, ((ROW - 2) * n) / max);
      ctx.rect(labelPx + c, base - h, 1, h);
    }
    ctx.fillStyle = classColour(label);
    ctx.fill();
  });
}
