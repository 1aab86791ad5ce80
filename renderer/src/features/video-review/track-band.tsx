/**
 * Under the timeline, on its time axis: the selected tracks, each a band from its first box to its
 * last with a tick per box, so a person sees where a track is and where it has gaps.
 */
import { memo, useMemo } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { useClockValue, type ClipClock } from './clip-clock.js';
import { LABEL_W, WIDTH } from './detection-timeline.js';
import { trackName, type TrackSummary } from './track-summaries.js';

interface TrackBandProps {
  tracks: readonly TrackSummary[];
  boxes: readonly ReviewBox[];
  durationMs: number;
  clock: ClipClock;
}

const ROW = 12;

/** The playhead across the band (the only part that follows the clock). */
function BandPlayhead(p: { clock: ClipClock; x(timeMs: number): number; height: number }) {
  const at = useClockValue(p.clock, p.x);
  return <line x1={at} x2={at} y1={0} y2={p.height} className="timeline-playhead" />;
}

export const TrackBand = memo(function TrackBand({
  tracks,
  boxes,
  durationMs,
  clock,
}: TrackBandProps) {
  // The boxes of the selected tracks: found once per selection, not on every clock tick.
  const ticks = useMemo(() => {
    const rowOf = new Map(tracks.map((t, i) => [t.id, i]));
    return boxes.flatMap((b) => {
      const row = b.trackId === null || b.deleted ? undefined : rowOf.get(b.trackId);
      return row === undefined || b.timeMs === null ? [] : [{ key: b.key, row, timeMs: b.timeMs }];
    });
  }, [tracks, boxes]);
  if (tracks.length === 0) return null;
  const span = Math.max(1, durationMs);
  const x = (t: number) => LABEL_W + ((WIDTH - LABEL_W) * t) / span;
  const height = tracks.length * ROW + 2;
  return (
    <svg
      className="track-band"
      role="img"
      aria-label={`Selected on the timeline: ${tracks.map(trackName).join('; ')}`}
      viewBox={`0 0 ${WIDTH} ${height}`}
      preserveAspectRatio="none"
    >
      {tracks.map((t, i) => (
        <g key={t.id} transform={`translate(0 ${i * ROW})`}>
          <text x={0} y={ROW - 3} className="timeline-label">
            #{t.id}
          </text>
          <rect
            x={x(t.startMs)}
            y={2}
            width={Math.max(2, x(t.endMs) - x(t.startMs))}
            height={ROW - 3}
            className="track-band-span"
          />
        </g>
      ))}
      {ticks.map((b) => (
        <rect
          key={b.key}
          x={x(b.timeMs)}
          y={b.row * ROW + 4}
          width={1.5}
          height={ROW - 7}
          className="track-band-box"
        />
      ))}
      <BandPlayhead clock={clock} x={x} height={height} />
    </svg>
  );
});
