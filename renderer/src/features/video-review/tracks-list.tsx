/**
 * The `Tracks` listbox: one option per track of the clip, in the chosen sort. Click selects a
 * track, Ctrl+click adds or removes one, Shift+click selects a range (the library grid's rules);
 * arrows, Home and End walk the list. Only the rows in view are in the document (a long clip has
 * thousands of tracks); each option states its place in the whole list.
 */
import { memo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useVirtualListbox } from '../../ui/use-virtual-listbox.js';
import { classColour, useClassColours } from '../review/box-colours.js';
import { scoreText, spanText, trackName, type TrackSummary } from './track-summaries.js';
import { onlyTrack, pickTrack, type TrackSelection } from './track-selection.js';

interface TracksListProps {
  tracks: readonly TrackSummary[];
  selection: TrackSelection;
  /** A new selection, and the track clicked or walked to (the clip goes to it). */
  onSelect(selection: TrackSelection, picked: TrackSummary): void;
}

/** Matches `.track-option` in tracks.css (two lines: the track, then its span and boxes). */
const ROW_HEIGHT = 40;
const optionId = (id: number) => `track-${id}`;

const Row = memo(function Row(p: {
  track: TrackSummary;
  chosen: boolean;
  index: number;
  count: number;
  top: number;
  onPick(index: number, e: MouseEvent): void;
}) {
  useClassColours();
  const t = p.track;
  return (
    <div
      id={optionId(t.id)}
      role="option"
      aria-label={trackName(t)}
      aria-selected={p.chosen}
      aria-setsize={p.count}
      aria-posinset={p.index + 1}
      className={`track-option review-${t.review}`}
      style={{ transform: `translateY(${p.top}px)` }}
      onClick={(e) => p.onPick(p.index, e)}
    >
      <span className="swatch" style={{ background: classColour(t.label) }} aria-hidden="true" />
      <span className="track-title">
        {t.label} #{t.id}
      </span>
      <span className="track-score muted small">{scoreText(t)}</span>
      <span className="track-span muted small">{spanText(t)}</span>
    </div>
  );
});

export function TracksList({ tracks, selection, onSelect }: TracksListProps) {
  const live = useRef({ tracks, selection, onSelect });
  live.current = { tracks, selection, onSelect };
  const activeIndex =
    selection.active === null ? -1 : tracks.findIndex((t) => t.id === selection.active);
  const active = tracks[activeIndex];
  const { listRef, virtualizer, walkTo } = useVirtualListbox(
    tracks.length,
    ROW_HEIGHT,
    activeIndex,
  );

  const onPick = useRef((index: number, e: MouseEvent) => {
    const { tracks: all, selection: sel, onSelect: pick } = live.current;
    const track = all[index];
    if (!track) return;
    const order = all.map((t) => t.id);
    pick(
      pickTrack(sel, order, index, { shift: e.shiftKey, ctrlOrMeta: e.ctrlKey || e.metaKey }),
      track,
    );
  }).current;

  function onKeyDown(e: KeyboardEvent) {
    // Alt and Ctrl with a walking key belong to the screen's commands.
    const to = e.altKey || e.ctrlKey ? undefined : walkTo(e);
    if (to === undefined) return;
    // The list walks here; the screen's shortcuts skip an event handled already.
    e.preventDefault();
    const next = tracks[to];
    if (next) onSelect(onlyTrack(next.id), next);
  }

  return (
    <div
      ref={listRef}
      role="listbox"
      aria-label="Tracks"
      aria-multiselectable="true"
      className="tracks-list"
      tabIndex={0}
      aria-activedescendant={active ? optionId(active.id) : undefined}
      onKeyDown={onKeyDown}
    >
      <div className="tracks-list-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const t = tracks[v.index];
          return t ? (
            <Row
              key={t.id}
              track={t}
              chosen={selection.ids.has(t.id)}
              index={v.index}
              count={tracks.length}
              top={v.start}
              onPick={onPick}
            />
          ) : null;
        })}
      </div>
    </div>
  );
}
