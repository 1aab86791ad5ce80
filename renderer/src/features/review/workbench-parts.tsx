/**
 * The parts of the review screen shared by images and clips, each bound to the workbench: the head
 * (back, title, position, previous/next item), the toolbar, the save error, the side panel (label
 * picker and the `Boxes` list).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import type { ReviewBox } from '@shared/contract/review-schemas.js';
import { ErrorNote } from '../../ui/error-note.js';
import { ClassPicker } from './class-picker.js';
import { ReviewBoxesList } from './review-boxes-list.js';
import { MarkReviewedButton } from './mark-reviewed-button.js';
import { ReviewToolbar } from './review-toolbar.js';
import { TeamConflictPanel } from './team-conflict-panel.js';
import type { ReviewedMark } from './use-reviewed-mark.js';
import type { ReviewNext } from './use-review-next.js';
import type { Workbench } from './use-review-workbench.js';

interface HeadProps {
  name: string;
  path?: string;
  nav: { prev: number | null; next: number | null; position: number; total: number | null };
  /** After the position: the picture's size, a proxy note. */
  detail?: ReactNode;
  /** The item's reviewed mark ("Mark reviewed", key M). */
  mark: ReviewedMark;
  /** "Review next" (Enter): marks the item reviewed, opens the likeliest mistakes next. */
  next: ReviewNext;
  onOpen(id: number): void;
  onBack(position?: number): void;
}

export function ReviewHead({ name, path, nav, detail, mark, next, onOpen, onBack }: HeadProps) {
  return (
    <div className="screen-head">
      <button type="button" onClick={() => onBack(nav.position)}>
        Back to library
      </button>
      <h1 className="viewer-title" title={path}>
        {name || 'Loading…'}
      </h1>
      <span className="muted">
        {nav.total !== null && nav.position >= 0 ? `${nav.position + 1} of ${nav.total}` : ''}
        {detail}
      </span>
      {(['prev', 'next'] as const).map((to) => {
        const target = nav[to];
        return (
          <button
            key={to}
            type="button"
            disabled={target === null}
            onClick={() => target !== null && onOpen(target)}
          >
            {to === 'prev' ? 'Previous' : 'Next'}
          </button>
        );
      })}
      <MarkReviewedButton mark={mark} />
      <button
        type="button"
        aria-keyshortcuts="Enter"
        disabled={next.busy}
        title="Enter: mark this item reviewed and open the one with the most expected corrections"
        onClick={next.go}
      >
        Review next
      </button>
      <span role="status" className="muted">
        {next.status ?? ''}
      </span>
      {next.error ? <ErrorNote error={next.error} title="Not moved on" /> : null}
      <EmptyFileQuestion next={next} />
    </div>
  );
}

/**
 * Review next on a file that shows no box: it would become ground truth for "no objects". Cancel
 * takes the focus (the dialog's first button), so a second stray Enter does not say yes.
 */
function EmptyFileQuestion({ next }: { next: ReviewNext }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (next.asking && d && !d.open) d.showModal();
    if (!next.asking && d?.open) d.close();
  }, [next.asking]);
  return (
    <dialog
      ref={dialog}
      aria-label="Mark as no objects"
      className="confirm-dialog"
      onClose={() => next.asking && next.answer(false)}
    >
      <h2>Mark this file reviewed with no objects?</h2>
      <p>
        It shows no box. Marked reviewed, it says the picture holds nothing to find: Quality counts
        every box the model puts on it as a false positive.
      </p>
      <p className="hint">Asked once per session.</p>
      <div className="dialog-actions">
        <button type="button" onClick={() => next.answer(false)}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => next.answer(true)}>
          Mark reviewed and go on
        </button>
      </div>
    </dialog>
  );
}

export function WorkbenchToolbar({ w, children }: { w: Workbench; children?: ReactNode }) {
  const shownCount = w.editable ? w.shown.length : 0;
  return (
    <>
      <ReviewToolbar
        filters={w.filters}
        setFilters={w.setFilters}
        labels={w.labels}
        drawMode={w.drawMode}
        canDraw={w.editable}
        onDraw={w.toggleDraw}
        onAccept={() => w.decideShown('accept')}
        onReject={() => w.decideShown('reject')}
        shownCount={shownCount}
        canUndo={w.edits.canUndo}
        canRedo={w.edits.canRedo}
        onUndo={() => void w.edits.undo()}
        onRedo={() => void w.edits.redo()}
        onHelp={w.openHelp}
      >
        {children}
      </ReviewToolbar>
      {w.reviewed.error ? <ErrorNote error={w.reviewed.error} title="Not marked" /> : null}
      {w.edits.error ? (
        <div className="review-error">
          <ErrorNote error={w.edits.error} title="Not saved" />
          <button type="button" onClick={w.edits.clearError}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}

interface SideProps {
  w: Workbench;
  /** The list's heading ("Boxes", or "Boxes at 4.00 s" on a clip). */
  title: string;
  /** Of how many boxes in scope (the filter hides the rest). */
  total: number;
  loaded: boolean;
  /** A note above the list (why a clip's frame is not editable now). */
  note?: ReactNode;
  onRelabelTrack?(trackId: number, label: string): void;
  /** A person picked boxes in the list (a clip selects their tracks too); else they are selected. */
  onSelect?(keys: Set<string>): void;
  /** A clip's boxes no track vouches for, marked in the list. */
  unconfirmed?: (box: ReviewBox) => boolean;
}

export function WorkbenchSide(p: SideProps) {
  const { w, title, total, loaded, note, onRelabelTrack } = p;
  const { sel, firstSelected } = w;
  const trackId = sel.size === 1 ? (firstSelected?.trackId ?? null) : null;
  return (
    <aside className="viewer-side">
      <ClassPicker
        value={firstSelected?.label ?? w.lastLabel}
        classes={w.pickable}
        selectedCount={w.editable ? sel.size : 0}
        inputRef={w.labelInput}
        onApply={(label) => (w.editable && sel.size > 0 ? w.relabel(label) : w.setLastLabel(label))}
        onApplyTrack={
          trackId !== null && onRelabelTrack ? (label) => onRelabelTrack(trackId, label) : null
        }
        onDone={w.labelDone}
      />
      <TeamConflictPanel team={w.team} selectedKey={firstSelected?.key} />
      <h2>
        {title} ({w.shown.length}
        {w.shown.length !== total ? ` of ${total}` : ''})
      </h2>
      {note}
      {loaded && w.shown.length === 0 ? <p className="muted">No boxes shown.</p> : null}
      <ReviewBoxesList
        boxes={w.rows}
        selected={sel}
        onSelect={p.onSelect ?? w.setSelected}
        conflicts={w.conflicts}
        teamConflicts={w.team.names}
        unconfirmed={p.unconfirmed}
      />
    </aside>
  );
}
