/**
 * The `Boxes` listbox: one option per box shown, named "label score", in sync with the stage both
 * ways; a conflict is one option, "apple / orange · conflict" (Shift+C, or a click on a class of
 * the selected row, chooses which of its boxes `C` keeps). Only the rows in view are in the document (5,000 rows made every selection a full layout
 * of the page); each option states its position in the whole list for assistive technology.
 */
import { memo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { useVirtualListbox } from '../../ui/use-virtual-listbox.js';
import { boxName } from '../library/viewer/box-geometry.js';
import { classColour, useClassColours } from './box-colours.js';
import { conflictName, type ConflictRow } from './conflict-rows.js';

interface ReviewBoxesListProps {
  boxes: readonly ReviewBox[];
  selected: ReadonlySet<string>;
  onSelect(keys: Set<string>): void;
  /** Each conflict, by the key of its chosen box (the one row that stands for it). */
  conflicts?: ReadonlyMap<string, ConflictRow>;
  /** Boxes another team member changed too, by key: "team conflict with bob". */
  teamConflicts?: ReadonlyMap<string, string>;
  /** A clip's box in no track the tracker could confirm (video-review/unplaced-boxes.ts). */
  unconfirmed?: (box: ReviewBox) => boolean;
}

/** Matches `.box-option` in viewer.css (one line per row). */
const ROW_HEIGHT = 28;
const optionId = (key: string) => `review-box-${key}`;

const Row = memo(function Row({
  box,
  chosen,
  index,
  count,
  top,
  onPick,
  conflict,
  team,
  unconfirmed,
}: {
  box: ReviewBox;
  chosen: boolean;
  index: number;
  count: number;
  top: number;
  onPick(key: string, e: MouseEvent): void;
  conflict: ConflictRow | undefined;
  team: string | undefined;
  unconfirmed: boolean;
}) {
  useClassColours();
  const byRule = box.review === 'accepted' && Boolean(box.rule);
  // A clip track's box between its anchors (video-review/interpolated-boxes.ts).
  const between = 'interpolated' in box && box.interpolated === true;
  // A conflict's row stands for several boxes: it counts those accepted by rule.
  const ruleText = conflict ? (conflict.byRule > 0 ? `${conflict.byRule} by rule` : '') : 'by rule';
  const state = [
    // First: the row is narrow, and this one waits for a person.
    team ? 'team conflict' : '',
    box.review === 'pending' ? '' : byRule ? ruleText : box.review,
    between ? 'interpolated' : box.origin === 'model' ? '' : box.origin,
    box.trackId === null ? (unconfirmed ? 'unconfirmed' : '') : `#${box.trackId}`,
    conflict ? 'conflict' : '',
    conflict && !byRule && conflict.byRule > 0 ? ruleText : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      id={optionId(box.key)}
      role="option"
      aria-label={
        // "unconfirmed" first, so a name still ends with its score (or with none, for a person's box).
        `${conflict ? conflictName(conflict) : `${unconfirmed ? 'unconfirmed ' : ''}${boxName(box)}`}${team ? ` · ${team}` : ''}`
      }
      aria-selected={chosen}
      aria-setsize={count}
      aria-posinset={index + 1}
      data-bbox={`${box.bbox.x},${box.bbox.y},${box.bbox.w},${box.bbox.h}`}
      className={`box-option review-${byRule ? 'rule' : box.review}${conflict ? ' in-conflict' : ''}${team ? ' in-team-conflict' : ''}${unconfirmed ? ' unconfirmed' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={(e) => onPick(box.key, e)}
    >
      <span className="swatch" style={{ background: classColour(box.label) }} aria-hidden="true" />
      {conflict ? (
        <span className="box-label">
          {conflict.members.map((m, i) => (
            <span key={m.key}>
              {i > 0 ? ' / ' : ''}
              {/* On the selected row a click on a class chooses it (Shift+C from the keyboard). */}
              <span
                className={i === conflict.chosen ? 'conflict-chosen' : 'conflict-other'}
                onClick={(e) => {
                  // The first click selects the row; on a selected row a class is chosen.
                  if (!chosen) return;
                  e.stopPropagation();
                  onPick(m.key, e);
                }}
              >
                {m.label}
              </span>
            </span>
          ))}
        </span>
      ) : (
        <span className="box-label">{box.label}</span>
      )}
      <span className="box-score">{box.score === null ? '' : box.score.toFixed(2)}</span>
      <span
        className="box-state muted small"
        title={byRule ? `accepted by rule: ${box.rule}` : state}
      >
        {state}
      </span>
    </div>
  );
});

export function ReviewBoxesList(p: ReviewBoxesListProps) {
  const { boxes, selected, onSelect, conflicts, teamConflicts, unconfirmed } = p;
  const live = useRef({ selected, onSelect });
  live.current = { selected, onSelect };
  const [first] = selected;
  const activeIndex = first === undefined ? -1 : boxes.findIndex((b) => b.key === first);
  const active = activeIndex === -1 ? null : (boxes[activeIndex]?.key ?? null);
  const { listRef, virtualizer, walkTo } = useVirtualListbox(boxes.length, ROW_HEIGHT, activeIndex);

  const onPickRef = useRef((key: string, e: MouseEvent) => {
    const { selected: sel, onSelect: pick } = live.current;
    if (!e.shiftKey) return pick(new Set([key]));
    const next = new Set(sel);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    pick(next);
  });

  function onKeyDown(e: KeyboardEvent) {
    const to = walkTo(e);
    if (to === undefined) return;
    // The list walks here; the screen's shortcuts skip an event handled already.
    e.preventDefault();
    const next = boxes[to];
    if (next) onSelect(new Set([next.key]));
  }

  const count = boxes.length;
  return (
    <div
      ref={listRef}
      role="listbox"
      aria-label="Boxes"
      aria-multiselectable="true"
      className="boxes-list"
      tabIndex={0}
      aria-activedescendant={active === null ? undefined : optionId(active)}
      onKeyDown={onKeyDown}
    >
      <div className="boxes-list-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const b = boxes[v.index];
          return b ? (
            <Row
              key={b.key}
              box={b}
              chosen={selected.has(b.key)}
              index={v.index}
              count={count}
              top={v.start}
              onPick={onPickRef.current}
              conflict={conflicts?.get(b.key)}
              team={teamConflicts?.get(b.key)}
              unconfirmed={unconfirmed?.(b) ?? false}
            />
          ) : null;
        })}
      </div>
    </div>
  );
}
