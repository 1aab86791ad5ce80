/** The item's boxes as a listbox: one option per box, named "label score". */
import type { KeyboardEvent } from 'react';
import type { Box } from '../../../../../electron/shared/contract/index.js';
import { boxName } from './box-geometry.js';

interface BoxesListProps {
  boxes: readonly Box[];
  selectedId: number | null;
  onSelect(id: number): void;
}

export function BoxesList({ boxes, selectedId, onSelect }: BoxesListProps) {
  const at = boxes.findIndex((b) => b.id === selectedId);
  function onKeyDown(e: KeyboardEvent) {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step === 0 || boxes.length === 0) return;
    e.preventDefault();
    const next = boxes[Math.min(boxes.length - 1, Math.max(0, at + step))];
    if (next) onSelect(next.id);
  }
  return (
    <ul
      role="listbox"
      aria-label="Boxes"
      className="boxes-list"
      tabIndex={0}
      aria-activedescendant={selectedId === null ? undefined : `box-${selectedId}`}
      onKeyDown={onKeyDown}
    >
      {boxes.map((b) => (
        <li
          key={b.id}
          id={`box-${b.id}`}
          role="option"
          aria-label={boxName(b)}
          aria-selected={b.id === selectedId}
          className={`box-option review-${b.review}`}
          onClick={() => onSelect(b.id)}
        >
          <span className="box-label">{b.label}</span>
          <span className="box-score">{b.score.toFixed(2)}</span>
          {b.timeMs !== null ? (
            <span className="muted small">{(b.timeMs / 1000).toFixed(1)} s</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
