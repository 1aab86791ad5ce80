/**
 * Image review: the picture (EXIF-oriented by the browser) on the box stage, the Boxes list, the
 * label picker and the toolbar. Every edit goes through useReviewEdits (shown and saved at once,
 * undoable across items); the keys are in review-shortcuts.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CallInput } from '../../../../electron/shared/contract/index.js';
import type { ReviewBox, ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';
import {
  translateWithin,
  type NormBox,
  type Size,
} from '../../../../electron/shared/geometry/box-math.js';
import { useCall } from '../../api/use-call.js';
import { ShortcutHelp } from '../../app/shortcut-help.js';
import { ErrorNote } from '../../ui/error-note.js';
import { BoxStage, type BoxChange, type StageHandle } from './box-stage.js';
import { ClassPicker } from './class-picker.js';
import { ReanalyseButton } from './reanalyse-dialog.js';
import { ReviewBoxesList } from './review-boxes-list.js';
import { REVIEW_SHORTCUTS, type ReviewAction } from './review-shortcuts.js';
import '../../styles/review.css';
import { ReviewToolbar, type ReviewFilters } from './review-toolbar.js';
import type { UndoStack } from './undo-stack.js';
import { useItemOrder } from './use-item-order.js';
import { useReviewEdits, type PlannedEdit } from './use-review-edits.js';
import { useReviewKeys } from './use-review-keys.js';

interface ImageReviewProps {
  id: number;
  solution: string;
  mediaBase: string;
  order: Omit<CallInput<'library.ids'>, 'offset' | 'limit'>;
  classes: readonly string[];
  undo: UndoStack;
  onOpen(id: number): void;
  /** Back to the library, focused on the item reviewed last (its position in the order). */
  onBack(position?: number): void;
}

/** Edits name their box when they go out (use-review-edits resolves it). */
const SOME_BOX = { detectionId: null, correctionId: null };

export function ImageReview(p: ImageReviewProps) {
  const { id, solution } = p;
  const detail = useCall('library.item', { id, solution });
  const boxesQ = useCall('review.boxes', { id, solution });
  const nav = useItemOrder(p.order, id, p.mediaBase);
  const edits = useReviewEdits({ id, solution, undo: p.undo, onOpenItem: p.onOpen });
  const stage = useRef<StageHandle>(null);
  const labelInput = useRef<HTMLInputElement>(null);
  const [picture, setPicture] = useState<{ id: number; size: Size } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [filters, setFilters] = useState<ReviewFilters>({
    threshold: 0,
    label: null,
    hidden: false,
  });
  const [drawMode, setDrawMode] = useState(false);
  const [help, setHelp] = useState(false);
  const [lastLabel, setLastLabel] = useState(p.classes[0] ?? 'object');

  useEffect(() => {
    setSelected(new Set());
    setDrawMode(false);
    stage.current?.element()?.focus({ preventScroll: true });
  }, [id]);

  const all = useMemo(() => boxesQ.data?.boxes ?? [], [boxesQ.data]);
  const shown = useMemo(
    () =>
      all.filter(
        (b) =>
          (b.score >= filters.threshold || b.origin === 'added') &&
          (filters.label === null || b.label === filters.label),
      ),
    [all, filters.threshold, filters.label],
  );
  const byKey = useMemo(() => new Map(all.map((b) => [b.key, b])), [all]);
  // The selection keeps only boxes still shown (a deleted or filtered-out box is not acted on).
  const sel = useMemo(() => {
    const keys = new Set(shown.map((b) => b.key));
    return new Set([...selected].map(edits.currentKey).filter((k) => keys.has(k)));
  }, [selected, shown]);
  const labels = useMemo(() => [...new Set(all.map((b) => b.label))].sort(), [all]);
  const pickable = useMemo(() => [...new Set([...p.classes, ...labels])], [p.classes, labels]);
  const firstSelected = [...sel].map((k) => byKey.get(k)).find(Boolean);

  const forSelected = (make: (b: ReviewBox) => ReviewEdit, label: string) => {
    const planned: PlannedEdit[] = [...sel].flatMap((key) => {
      const b = byKey.get(key);
      return b ? [{ key, edit: make(b) }] : [];
    });
    void edits.apply(planned, label);
  };
  const onChange = (c: BoxChange) => {
    const planned = [...c.boxes].map(([key, bbox]) => ({
      key,
      edit: { kind: c.kind, box: SOME_BOX, bbox },
    }));
    void edits.apply(planned, c.kind);
  };
  const onDraw = (bbox: NormBox) => {
    const key = edits.newKey();
    const edit: ReviewEdit = { kind: 'add', frameIndex: 0, timeMs: null, label: lastLabel, bbox };
    void edits.apply([{ key, edit }], 'draw');
    setDrawMode(false);
    setSelected(new Set([key]));
    // The new box takes the last label; the field is ready to change it at once.
    requestAnimationFrame(() => labelInput.current?.select());
  };
  const relabel = (label: string) => {
    setLastLabel(label);
    forSelected((b) => ({ kind: 'relabel', box: SOME_BOX, label: label || b.label }), 'relabel');
  };
  const nudge = (dx: number, dy: number) => {
    const size = picture?.size;
    if (!size) return;
    forSelected(
      (b) => ({
        kind: 'move',
        box: SOME_BOX,
        bbox: translateWithin(b.bbox, dx / size.width, dy / size.height),
      }),
      'move',
    );
  };
  const cycle = (step: 1 | -1): boolean => {
    if (shown.length === 0) return false;
    const at = firstSelected ? shown.findIndex((b) => b.key === firstSelected.key) : -1;
    const next = at === -1 ? (step === 1 ? 0 : shown.length - 1) : at + step;
    const box = shown[next];
    // Past either end the selection clears and Tab moves focus on as usual (no keyboard trap).
    setSelected(box ? new Set([box.key]) : new Set());
    return box !== undefined;
  };
  const classes = filters.label === null ? undefined : [filters.label];

  /** Runs a key's action; false lets the key do its usual thing. */
  const run = (a: ReviewAction): boolean => {
    switch (a.kind) {
      case 'fit':
        stage.current?.fit();
        break;
      case 'actual':
        stage.current?.actual();
        break;
      case 'zoomIn':
      case 'zoomOut':
        stage.current?.zoom(a.kind === 'zoomIn');
        break;
      case 'draw':
        setDrawMode((d) => !d);
        break;
      case 'delete':
        forSelected(() => ({ kind: 'delete', box: SOME_BOX }), 'delete');
        setSelected(new Set());
        break;
      case 'relabel':
        if (sel.size === 0) return false;
        labelInput.current?.select();
        break;
      case 'accept':
      case 'reject':
        forSelected(() => ({ kind: a.kind, box: SOME_BOX }), a.kind);
        break;
      case 'acceptShown':
      case 'rejectShown':
        void edits.bulk(a.kind === 'acceptShown' ? 'accept' : 'reject', filters.threshold, classes);
        break;
      case 'hide':
        setFilters((f) => ({ ...f, hidden: !f.hidden }));
        break;
      case 'next':
      case 'prev': {
        const to = a.kind === 'next' ? nav.next : nav.prev;
        if (to !== null) p.onOpen(to);
        break;
      }
      case 'back':
        if (drawMode) setDrawMode(false);
        else p.onBack(nav.position);
        break;
      case 'undo':
      case 'redo':
        void (a.kind === 'undo' ? edits.undo() : edits.redo());
        break;
      case 'help':
        setHelp(true);
        break;
      case 'nudge':
        nudge(a.dx, a.dy);
        break;
      case 'cycle':
        return cycle(a.step);
    }
    return true;
  };
  useReviewKeys({ hasSelection: sel.size > 0, stage: () => stage.current?.element() ?? null, run });

  const item = detail.data?.item;
  const name = item?.name ?? '';
  const size = picture?.id === id ? picture.size : null;
  return (
    <div className="screen review">
      <div className="screen-head">
        <button type="button" onClick={() => p.onBack(nav.position)}>
          Back to library
        </button>
        <h1 className="viewer-title" title={item?.path}>
          {name || 'Loading…'}
        </h1>
        <span className="muted">
          {nav.total !== null && nav.position >= 0 ? `${nav.position + 1} of ${nav.total}` : ''}
          {size ? ` · ${size.width}×${size.height}` : ''}
        </span>
        <button
          type="button"
          disabled={nav.prev === null}
          onClick={() => nav.prev !== null && p.onOpen(nav.prev)}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={nav.next === null}
          onClick={() => nav.next !== null && p.onOpen(nav.next)}
        >
          Next
        </button>
      </div>
      <ReviewToolbar
        filters={filters}
        setFilters={setFilters}
        labels={labels}
        drawMode={drawMode}
        onDraw={() => setDrawMode((d) => !d)}
        onAccept={() => void edits.bulk('accept', filters.threshold, classes)}
        onReject={() => void edits.bulk('reject', filters.threshold, classes)}
        shownCount={shown.length}
        canUndo={edits.canUndo}
        canRedo={edits.canRedo}
        onUndo={() => void edits.undo()}
        onRedo={() => void edits.redo()}
        onHelp={() => setHelp(true)}
      >
        <ReanalyseButton
          mediaIds={[id]}
          solution={solution}
          onStarted={() => void boxesQ.refetch()}
        />
      </ReviewToolbar>
      {edits.error ? (
        <div className="review-error">
          <ErrorNote error={edits.error} title="Not saved" />
          <button type="button" onClick={edits.clearError}>
            Dismiss
          </button>
        </div>
      ) : null}
      {boxesQ.isError ? <ErrorNote error={boxesQ.error} /> : null}
      <div className="viewer-body">
        <BoxStage
          name={name}
          picture={size}
          boxes={shown}
          hidden={filters.hidden}
          selected={sel}
          drawMode={drawMode}
          onSelect={setSelected}
          onChange={onChange}
          onDraw={onDraw}
          handle={stage}
        >
          <img
            key={id}
            src={`${p.mediaBase}file/${id}`}
            alt=""
            draggable={false}
            onLoad={(e) =>
              setPicture({
                id,
                size: {
                  width: e.currentTarget.naturalWidth,
                  height: e.currentTarget.naturalHeight,
                },
              })
            }
          />
        </BoxStage>
        <aside className="viewer-side">
          <ClassPicker
            value={firstSelected?.label ?? lastLabel}
            classes={pickable}
            selectedCount={sel.size}
            inputRef={labelInput}
            onApply={(label) => (sel.size > 0 ? relabel(label) : setLastLabel(label))}
            onDone={() => stage.current?.element()?.focus({ preventScroll: true })}
          />
          <h2>
            Boxes ({shown.length}
            {shown.length !== all.length ? ` of ${all.length}` : ''})
          </h2>
          {boxesQ.data && shown.length === 0 ? <p className="muted">No boxes shown.</p> : null}
          <ReviewBoxesList boxes={shown} selected={sel} onSelect={setSelected} />
        </aside>
      </div>
      {help ? (
        <ShortcutHelp
          title="Review shortcuts"
          shortcuts={REVIEW_SHORTCUTS}
          onClose={() => setHelp(false)}
        />
      ) : null}
    </div>
  );
}
