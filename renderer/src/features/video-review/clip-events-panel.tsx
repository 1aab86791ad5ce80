/**
 * The clip's Events: per class, the time ranges it is present in (from its tracks, after the
 * person's corrections; see @shared/clips/clip-events), one button per range that seeks the clip
 * to the range's first box. The range the playhead is in is marked as current.
 */
import type { ClipEvent } from '@shared/clips/clip-events.js';
import { plural } from '../../ui/format.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { clockRange } from './clip-time.js';

interface ClipEventsProps {
  events: readonly ClipEvent[];
  timeMs: number;
  onSeek(timeMs: number): void;
}

/** What a person reads (and a screen reader says): "person: 00:00–00:41, 3 tracks". */
export function eventText(e: ClipEvent): string {
  return `${e.label}: ${clockRange(e.startMs, e.endMs)}, ${plural(e.tracks.length, 'track')}`;
}

export function ClipEventsPanel({ events, timeMs, onSeek }: ClipEventsProps) {
  useClassColours();
  return (
    <section className="clip-events" aria-labelledby="clip-events-title">
      <h3 id="clip-events-title">Events</h3>
      {events.length === 0 ? (
        <p className="muted small">No tracked objects in this clip.</p>
      ) : (
        <ul aria-label="Events" className="clip-event-list">
          {events.map((e) => (
            <li key={`${e.label}@${e.startMs}`}>
              <button
                type="button"
                className="clip-event"
                aria-current={timeMs >= e.startMs && timeMs <= e.endMs ? 'true' : undefined}
                title={`${plural(e.boxes, 'box', 'boxes')}, mean score ${e.meanScore.toFixed(2)}`}
                onClick={() => onSeek(e.startMs)}
              >
                <span
                  className="class-swatch"
                  aria-hidden="true"
                  style={{ background: classColour(e.label) }}
                />
                {eventText(e)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
