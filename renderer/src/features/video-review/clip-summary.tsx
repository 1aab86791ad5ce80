/**
 * What happened when, under the clip's timeline: the count chart and the Events list, both read
 * from the clip's tracked boxes as they stand after the person's edits (recomputed on each edit,
 * not on a seek: the playhead and the current event follow the clock on their own).
 */
import { memo, useId, useMemo, useState } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { clipSummary } from '@shared/clips/clip-events.js';
import { shownBy } from '../review/box-filter.js';
import '../../styles/clip-summary.css';
import type { AnalysedFrame } from './clip-frames.js';
import type { ClipClock } from './clip-clock.js';
import { ClipEventsPanel } from './clip-events-panel.js';
import { CountChart } from './count-chart.js';

interface ClipSummaryProps {
  boxes: readonly ReviewBox[];
  frames: readonly AnalysedFrame[];
  durationMs: number;
  /** The review's score threshold: the events count the boxes a person sees, as an export does. */
  minScore: number;
  clock: ClipClock;
  onSeek(timeMs: number): void;
}

/** Shown or hidden for the whole session (a person who hides them wants the picture larger). */
let shownThisSession = true;

export const ClipSummary = memo(function ClipSummary(p: ClipSummaryProps) {
  const [open, setOpen] = useState(shownThisSession);
  const id = useId();
  const toggle = () => {
    shownThisSession = !open;
    setOpen(!open);
  };
  return (
    <>
      <button
        type="button"
        className="link-button summary-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={toggle}
      >
        {open ? 'Hide counts and events' : 'Show counts and events'}
      </button>
      {open ? (
        <div id={id} className="clip-summary">
          <SummaryBody {...p} />
        </div>
      ) : null}
    </>
  );
});

/** Computed only while shown. */
function SummaryBody({ boxes, frames, durationMs, minScore, clock, onSeek }: ClipSummaryProps) {
  const { events, counts } = useMemo(
    () =>
      clipSummary(
        boxes.filter(shownBy({ minScore, label: null })),
        frames.map((f) => f.timeMs),
      ),
    [boxes, frames, minScore],
  );
  return (
    <>
      <CountChart data={counts} durationMs={durationMs} clock={clock} onSeek={onSeek} />
      <ClipEventsPanel events={events} clock={clock} onSeek={onSeek} />
    </>
  );
}
