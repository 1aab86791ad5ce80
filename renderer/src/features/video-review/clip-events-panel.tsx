/**
 * The clip's Events: per class, the time ranges it is present in (from its tracks, after the
 * person's corrections; see @shared/clips/clip-events), one button per range that seeks the clip
 * to the range's first box. The range the playhead is in is marked as current. A long clip has
 * hundreds of ranges: each row renders again only when it becomes current or stops being so,
 * not on every move of the playhead.
 */
import { memo } from 'react';
import type { ClipEvent } from '@shared/clips/clip-events.js';
import { plural } from '../../ui/format.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { clockRange } from './clip-time.js';

interface ClipEventsProps {
  events: readonly ClipEvent[];
  timeMs: number;
  /** Kept the same across renders (the rows are memoised on it). */
  onSeek(timeMs: number): void;
}

/** What a person reads (and a screen reader says): "person: 00:00–00:41, 3 tracks". */
export function eventText(e: ClipEvent): string {
  return `${e.label}: ${clockRange(e.startMs, e.endMs)}, ${plural(e.tracks.length, 'track')}`;
}

const EventRow = memo(function EventRow(p: {
  event: ClipEvent;
  current: boolean;
  onSeek(timeMs: number): void;
}) {
  useClassColours();
  const e = p.event;
  return (
    <li>
      <button
        type="button"
        className="clip-event"
        aria-current={p.current ? 'true' : undefined}
        title={`${plural(e.boxes, 'box', 'boxes')}, mean score ${e.meanScore.toFixed(2)}`}
        onClick={() => p.onSeek(e.startMs)}
      >
        <span
          className="class-swatch"
          aria-hidden="true"
          style={{ background: classColour(e.label) }}
        />
        {eventText(e)}
      </button>
    </li>
  );
});

export function ClipEventsPanel({ events, timeMs, onSeek }: ClipEventsProps) {
  return (
    <section className="clip-events" aria-labelledby="clip-events-title">
      <h3 id="clip-events-title">Events</h3>
      {events.length === 0 ? (
        <p className="muted small">No tracked objects in this clip.</p>
      ) : (
        <ul aria-label="Events" className="clip-event-list">
          {events.map((e) => (
            <EventRow
              key={`${e.label}@${e.startMs}`}
              event={e}
              current={timeMs >= e.startMs && timeMs <= e.endMs}
              onSeek={onSeek}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
