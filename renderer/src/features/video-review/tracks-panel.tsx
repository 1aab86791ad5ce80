/**
 * Beside the clip: the `Tracks` list, its sort, and the buttons that act on the selected tracks
 * (each also a key, shown in its tooltip). Relabel track is the label field's button (a selected
 * track's box on the frame shown is selected, so it applies to that track).
 */
import { keysText, type CommandId } from '@shared/keyboard/registry.js';
import '../../styles/tracks.css';
import { TRACK_SORTS, tracksHeading, type TrackSort } from './track-summaries.js';
import { TracksList } from './tracks-list.js';
import type { TrackReview } from './use-track-review.js';

function ActionButton(p: {
  label: string;
  command: CommandId;
  why: string;
  enabled: boolean;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      disabled={!p.enabled}
      title={`${p.why} (${keysText(p.command)})`}
      onClick={p.onClick}
    >
      {p.label}
    </button>
  );
}

/** The decisions on every box of the selected tracks, one button each. */
const DECISIONS = [
  {
    decision: 'accept',
    label: 'Accept track',
    command: 'track.accept',
    why: 'Accept every box of the selected tracks',
  },
  {
    decision: 'reject',
    label: 'Reject track',
    command: 'track.reject',
    why: 'Reject every box of the selected tracks',
  },
  {
    decision: 'delete',
    label: 'Delete track',
    command: 'track.delete',
    why: 'Delete every box of the selected tracks',
  },
] as const;

export function TracksPanel({ t, loaded }: { t: TrackReview; loaded: boolean }) {
  const some = t.chosen.length > 0;
  return (
    <aside className="tracks-side" aria-label="Tracks panel">
      <div className="tracks-head">
        <h2>{tracksHeading(t.tracks.length)}</h2>
        <label className="filter">
          <span>Sort</span>
          <select
            aria-label="Sort tracks"
            value={t.sort}
            onChange={(e) => t.setSort(e.target.value as TrackSort)}
          >
            {TRACK_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="track-actions" role="group" aria-label="Track actions">
        {DECISIONS.map((d) => (
          <ActionButton
            key={d.decision}
            label={d.label}
            command={d.command}
            why={d.why}
            enabled={some}
            onClick={() => t.decide(d.decision)}
          />
        ))}
        <ActionButton
          label="Merge tracks"
          command="track.merge"
          why="Make the selected tracks one (Ctrl+click a second track first)"
          enabled={t.chosen.length >= 2}
          onClick={t.merge}
        />
        <ActionButton
          label="Split track"
          command="track.split"
          why="Cut the selected track at the time shown: from it on, a new track"
          enabled={t.canSplit}
          onClick={t.split}
        />
      </div>
      {loaded && t.tracks.length === 0 ? <p className="muted">No tracks in this clip.</p> : null}
      <TracksList tracks={t.tracks} selection={t.selection} onSelect={t.pick} />
    </aside>
  );
}
