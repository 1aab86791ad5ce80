/**
 * The clip's Events: per class, the time ranges it is present in (from its tracks, after the
 * person's corrections; see @shared/clips/clip-events), one button per range that seeks the clip
 * to the range's first box. The ranges the playhead is in are marked as current. A long clip has
 * hundreds of ranges: the list follows the clock only through which ranges are current, and a
 * row renders again only when it becomes current or stops being so.
 */
import { memo } from 'react';
import type { ClipEvent } from '@shared/clips/clip-events.js';
import { plural } from '../../ui/format.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { useClockValue, type ClipClock } from './clip-clock.js';
import { clockRange } from './clip-time.js';

interface ClipEventsProps {
  events: readonly ClipEvent[];
  clock: ClipClock;
  /** Kept the same across renders (the rows are memoised on it). */
  onSeek(timeMs: number): void;
}

/** What a person reads (and a screen reader says): "person: 00:00–00:41, 3 tracks". */
export function eventText(e: ClipEvent): string {
  return `${e.label}: ${clockRange(e.startMs, e.endMs)}, ${plural(e.tracks.length, 'track')}`;
}

const EventRow = memo(function EventRow(p: {
  event: ClipEvent;
  /** Its class's colour (the list follows the colours once, not each of hundreds of rows). */
  colour: string;
  current: boolean;
  onSeek(timeMs: number): void;
}) {
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
        <span className="class-swatch" aria-hidden="true" style={{ background: p.colour }} />
        {eventText(e)}
      </button>
    </li>
  );
});

/** The indices of the events `timeMs` falls in, as one comparable string ("3,4"). */
function currentEvents(events: readonly ClipEvent[], timeMs: number): string {
  const out: number[] = [];
  events.forEach((e, i) => {
    if (timeMs >= e.startMs && timeMs <= e.endMs) out.push(i);
  });
  return out.join(',');
}

export function ClipEventsPanel({ events, clock, onSeek }: ClipEventsProps) {
  const current = useClockValue(clock, (t) => currentEvents(events, t));
  const isCurrent = new Set(current.split(',').filter(Boolean).map(Number));
  useClassColours();
  return (
    <section className="clip-events" aria-labelledby="clip-events-title">
      <h3 id="clip-events-title">Events</h3>
      {events.length === 0 ? (
        <p className="muted small">No tracked objects in this clip.</p>
      ) : (
        <ul aria-label="Events" className="clip-event-list">
          {events.map((e, i) => (
            <EventRow
              key={`${e.label}@${e.startMs}`}
              event={e}
              colour={classColour(e.label)}
              current={isCurrent.has(i)}
              onSeek={onSeek}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
