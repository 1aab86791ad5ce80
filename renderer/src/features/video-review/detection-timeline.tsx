/**
 * Under the clip: one row per class with a bar per analysed frame (its height: how many boxes of
 * that class), a strip marking the frames a person reviewed, and the playhead. Plain SVG: a few
 * hundred bars; clicking seeks.
 */
import type { MouseEvent } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { densityByClass, isReviewed, type AnalysedFrame } from './clip-frames.js';
import { classColour } from '../review/box-colours.js';

interface TimelineProps {
  frames: readonly AnalysedFrame[];
  shown: (b: ReviewBox) => boolean;
  durationMs: number;
  timeMs: number;
  onSeek(timeMs: number): void;
}

const ROW = 14;
export const LABEL_W = 90;
export const WIDTH = 1000;

export function DetectionTimeline({ frames, shown, durationMs, timeMs, onSeek }: TimelineProps) {
  const rows = [...densityByClass(frames, shown)].sort((a, b) => a[0].localeCompare(b[0]));
  const max = Math.max(1, ...rows.flatMap(([, r]) => r.map((p) => p.count)));
  const span = Math.max(1, durationMs);
  const x = (t: number) => LABEL_W + ((WIDTH - LABEL_W) * t) / span;
  const height = (rows.length + 1) * ROW + 4;
  function seek(e: MouseEvent<SVGSVGElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    const at = ((e.clientX - rect.left) / rect.width) * WIDTH;
    if (at >= LABEL_W) onSeek(((at - LABEL_W) / (WIDTH - LABEL_W)) * span);
  }
  return (
    <svg
      className="detection-timeline"
      role="img"
      aria-label="Detections over time"
      viewBox={`0 0 ${WIDTH} ${height}`}
      preserveAspectRatio="none"
      onClick={seek}
    >
      <text x={0} y={ROW - 3} className="timeline-label">
        reviewed
      </text>
      {frames.map((f) => (
        <rect
          key={f.index}
          x={x(f.timeMs)}
          y={3}
          width={2}
          height={ROW - 6}
          className={isReviewed(f) ? 'timeline-reviewed' : 'timeline-pending'}
        />
      ))}
      {rows.map(([label, points], i) => (
        <g key={label} transform={`translate(0 ${(i + 1) * ROW})`}>
          <text x={0} y={ROW - 3} className="timeline-label">
            {label}
          </text>
          {points.map((p) => {
            const h = Math.max(2, ((ROW - 2) * p.count) / max);
            return (
              <rect
                key={p.timeMs}
                x={x(p.timeMs)}
                y={ROW - 1 - h}
                width={2}
                height={h}
                fill={classColour(label)}
              />
            );
          })}
        </g>
      ))}
      <line x1={x(timeMs)} x2={x(timeMs)} y1={0} y2={height} className="timeline-playhead" />
    </svg>
  );
}
