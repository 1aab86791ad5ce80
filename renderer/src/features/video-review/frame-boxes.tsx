/**
 * The paused frame's boxes: the `Boxes` listbox ("label score" options) and what a person does to
 * the selected box: accept (A), reject (R), delete (Delete), relabel (L) the box or its whole track.
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ReviewBox, ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';
import { boxName } from '../library/viewer/box-geometry.js';

interface FrameBoxesProps {
  boxes: readonly ReviewBox[];
  selectedKey: string | null;
  onSelect(key: string): void;
  /** Null while the clip plays: boxes are edited on a paused frame. */
  onEdit: ((edit: ReviewEdit) => void) | null;
  onRelabelTrack(trackId: number, label: string): void;
}

const ref = (b: ReviewBox) => ({ detectionId: b.detectionId, correctionId: b.correctionId });

export function FrameBoxes({
  boxes,
  selectedKey,
  onSelect,
  onEdit,
  onRelabelTrack,
}: FrameBoxesProps) {
  const [label, setLabel] = useState('');
  const selected = boxes.find((b) => b.key === selectedKey) ?? null;
  const at = selected ? boxes.indexOf(selected) : -1;

  function onKeyDown(e: KeyboardEvent) {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step === 0 || boxes.length === 0) return;
    e.preventDefault();
    const next = boxes[Math.min(boxes.length - 1, Math.max(0, at + step))];
    if (next) onSelect(next.key);
  }
  function relabel(e: FormEvent) {
    e.preventDefault();
    if (selected && onEdit && label.trim()) {
      onEdit({ kind: 'relabel', box: ref(selected), label: label.trim() });
    }
  }
  const act = (kind: 'accept' | 'reject' | 'delete') => () =>
    selected && onEdit?.({ kind, box: ref(selected) });

  return (
    <>
      <ul
        role="listbox"
        aria-label="Boxes"
        className="boxes-list"
        tabIndex={0}
        aria-activedescendant={selected ? `vbox-${selected.key}` : undefined}
        onKeyDown={onKeyDown}
      >
        {boxes.map((b) => (
          <li
            key={b.key}
            id={`vbox-${b.key}`}
            role="option"
            aria-label={boxName(b)}
            aria-selected={b.key === selectedKey}
            className={`box-option review-${b.review}`}
            onClick={() => onSelect(b.key)}
          >
            <span className="box-label">{b.label}</span>
            <span className="box-score">{b.score.toFixed(2)}</span>
            <span className="muted small">{b.trackId !== null ? `#${b.trackId}` : ''}</span>
            <span className="muted small">{b.review === 'pending' ? '' : b.review}</span>
          </li>
        ))}
      </ul>
      <div className="box-actions" role="group" aria-label="Selected box">
        <button type="button" disabled={!selected || !onEdit} onClick={act('accept')}>
          Accept box
        </button>
        <button type="button" disabled={!selected || !onEdit} onClick={act('reject')}>
          Reject box
        </button>
        <button type="button" disabled={!selected || !onEdit} onClick={act('delete')}>
          Delete box
        </button>
      </div>
      <form className="box-actions" onSubmit={relabel}>
        <label className="field">
          <span>New label</span>
          <input
            type="text"
            id="video-relabel"
            value={label}
            disabled={!selected || !onEdit}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!selected || !onEdit || !label.trim()}>
          Relabel
        </button>
        <button
          type="button"
          disabled={!selected?.trackId || !label.trim()}
          onClick={() => selected?.trackId && onRelabelTrack(selected.trackId, label.trim())}
        >
          Relabel track
        </button>
      </form>
    </>
  );
}
