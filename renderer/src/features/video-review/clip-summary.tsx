/**
 * What happened when, under the clip's timeline: the count chart and the Events list, both read
 * from the clip's tracked boxes as they stand after the person's edits (recomputed on each edit).
 */
import { useMemo } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { clipEvents, countsOverTime } from '@shared/clips/clip-events.js';
import '../../styles/clip-summary.css';
import type { AnalysedFrame } from './clip-frames.js';
import { ClipEventsPanel } from './clip-events-panel.js';
import { CountChart } from './count-chart.js';

interface ClipSummaryProps {
  boxes: readonly ReviewBox[];
  frames: readonly AnalysedFrame[];
  durationMs: number;
  timeMs: number;
  onSeek(timeMs: number): void;
}

export function ClipSummary({ boxes, frames, durationMs, timeMs, onSeek }: ClipSummaryProps) {
  const events = useMemo(() => clipEvents(boxes), [boxes]);
  const counts = useMemo(
    () =>
      countsOverTime(
        boxes,
        frames.map((f) => f.timeMs),
      ),
    [boxes, frames],
  );
  return (
    <>
      <CountChart data={counts} durationMs={durationMs} timeMs={timeMs} onSeek={onSeek} />
      <ClipEventsPanel events={events} timeMs={timeMs} onSeek={onSeek} />
    </>
  );
}
