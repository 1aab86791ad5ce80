/**
 * Under the timeline, on its time axis: the selected tracks, each a band from its first box to its
 * last with a tick per box, so a person sees where a track is and where it has gaps.
 */
import { memo, useEffect, useMemo } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { useClockValue, type ClipClock } from './clip-clock.js';
import { timeToX, WIDTH } from './timeline-axis.js';
import { trackName, type TrackSummary } from './track-summaries.js';

interface TrackBandProps {
  tracks: readonly TrackSummary[];
  boxes: readonly ReviewBox[];
  durationMs: number;
  clock: ClipClock;
}

const ROW = 12;

const NO_TICKS = new Map<number, number[]>();

const byTrackOf = new WeakMap<readonly ReviewBox[], Map<number, number[]>>();

/** The times of each track's boxes, once per version of the boxes. */
function ticksByTrack(boxes: readonly ReviewBox[]): Map<number, number[]> {
  let byTrack = byTrackOf.get(boxes);
  if (!byTrack) byTrackOf.set(boxes, (byTrack = boxesByTrack(boxes)));
  return byTrack;
}

/** The times of each track's boxes (deleted ones and those at no time left out). */
function boxesByTrack(boxes: readonly ReviewBox[]) {
  const out = new Map<number, number[]>();
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i] as ReviewBox;
    if (b.trackId === null || b.deleted || b.timeMs === null) continue;
    const list = out.get(b.trackId);
    if (list) list.push(b.timeMs);
    else out.set(b.trackId, [b.timeMs]);
  }
  return out;
}

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
  // Each track's boxes, grouped once per version of the boxes (while the page is idle, so that the
  // first track picked shows at once); a new selection only looks up its tracks (picking a track
  // must not walk a long clip's 50,000 boxes).
  useEffect(() => {
    const idle = requestIdleCallback(() => ticksByTrack(boxes));
    return () => cancelIdleCallback(idle);
  }, [boxes]);
  const any = tracks.length > 0;
  const byTrack = useMemo(() => (any ? ticksByTrack(boxes) : NO_TICKS), [any, boxes]);
  const span = Math.max(1, durationMs);
  const x = (t: number) => timeToX(t, span, WIDTH);
  // A tick per box, all in one path: a long track has hundreds of boxes, which as one element
  // each made picking it slow to show.
  const ticks = tracks
    .flatMap((t, row) =>
      (byTrack.get(t.id) ?? []).map(
        (timeMs) => `M${x(timeMs).toFixed(2)} ${row * ROW + 4}h1.5v${ROW - 7}h-1.5z`,
      ),
    )
    .join('');
  if (tracks.length === 0) return null;
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
      <path d={ticks} className="track-band-box" />
      <BandPlayhead clock={clock} x={x} height={height} />
    </svg>
  );
});
