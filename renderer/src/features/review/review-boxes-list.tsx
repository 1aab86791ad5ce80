/**
 * The `Boxes` listbox: one option per box shown, named "label score", in sync with the stage both
 * ways. Rows are memoised so a new selection among thousands re-renders only the rows it changes.
 */
import { memo, useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { ReviewBox } from '../../../../electron/shared/contract/review-schemas.js';
import { boxName } from '../library/viewer/box-geometry.js';
import { classColour } from './box-colours.js';

interface ReviewBoxesListProps {
  boxes: readonly ReviewBox[];
  selected: ReadonlySet<string>;
  onSelect(keys: Set<string>): void;
}

const optionId = (key: string) => `review-box-${key}`;

const Row = memo(function Row({
  box,
  chosen,
  onPick,
}: {
  box: ReviewBox;
  chosen: boolean;
  onPick(key: string, e: MouseEvent): void;
}) {
  return (
    <li
      id={optionId(box.key)}
      role="option"
      aria-label={boxName(box)}
      aria-selected={chosen}
      data-bbox={`${box.bbox.x},${box.bbox.y},${box.bbox.w},${box.bbox.h}`}
      className={`box-option review-${box.review}`}
      onClick={(e) => onPick(box.key, e)}
    >
      <span className="swatch" style={{ background: classColour(box.label) }} aria-hidden="true" />
      <span className="box-label">{box.label}</span>
      <span className="box-score">{box.score.toFixed(2)}</span>
      <span className="muted small">
        {box.review === 'pending' ? '' : box.review}
        {box.origin === 'model' ? '' : ` ${box.origin}`}
        {box.trackId === null ? '' : ` #${box.trackId}`}
      </span>
    </li>
  );
});

export function ReviewBoxesList({ boxes, selected, onSelect }: ReviewBoxesListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const live = useRef({ selected, onSelect });
  live.current = { selected, onSelect };
  const [first] = selected;
  const active = first !== undefined && boxes.some((b) => b.key === first) ? first : null;

  useEffect(() => {
    if (active === null) return;
    document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const onPickRef = useRef((key: string, e: MouseEvent) => {
    const { selected: sel, onSelect: pick } = live.current;
    if (!e.shiftKey) return pick(new Set([key]));
    const next = new Set(sel);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    pick(next);
  });

  function onKeyDown(e: KeyboardEvent) {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step === 0 || boxes.length === 0) return;
    // Up and down walk the list here; the screen's shortcuts skip an event handled already.
    e.preventDefault();
    const at = boxes.findIndex((b) => b.key === active);
    const next = boxes[Math.min(boxes.length - 1, Math.max(0, at + step))];
    if (next) onSelect(new Set([next.key]));
  }

  return (
    <ul
      ref={listRef}
      role="listbox"
      aria-label="Boxes"
      aria-multiselectable="true"
      className="boxes-list"
      tabIndex={0}
      aria-activedescendant={active === null ? undefined : optionId(active)}
      onKeyDown={onKeyDown}
    >
      {boxes.map((b) => (
        <Row key={b.key} box={b} chosen={selected.has(b.key)} onPick={onPickRef.current} />
      ))}
    </ul>
  );
}
