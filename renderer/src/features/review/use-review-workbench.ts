/**
 * The review workbench shared by images and a clip's paused frame: which boxes are shown (threshold,
 * class, hidden), the selection, draw mode, the label for new boxes, and what every tool and key
 * does to the boxes in scope (an image's boxes, or the paused frame's). Edits go through
 * useReviewEdits, so they are shown and saved at once and undone across items.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewBox, ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';
import {
  translateWithin,
  type NormBox,
  type Size,
} from '../../../../electron/shared/geometry/box-math.js';
import { shownBy } from './box-filter.js';
import type { BoxChange, StageHandle } from './box-stage.js';
import type { ReviewAction } from './review-shortcuts.js';
import type { ReviewFilters } from './review-toolbar.js';
import type { UndoStack } from './undo-stack.js';
import { useReviewEdits, type PlannedEdit } from './use-review-edits.js';
import { useReviewKeys } from './use-review-keys.js';
import { useReviewedMark } from './use-reviewed-mark.js';

/** Where a drawn box goes: frame 0 of an image, or a clip's analysed frame. */
export interface DrawTarget {
  frameIndex: number;
  timeMs: number | null;
}

export interface WorkbenchOptions {
  id: number;
  solution: string;
  classes: readonly string[];
  undo: UndoStack;
  /** Every box of the item (class filter choices, new labels). */
  itemBoxes: readonly ReviewBox[];
  /** The boxes the tools act on: the image's, or the paused frame's. */
  boxes: readonly ReviewBox[];
  picture: Size | null;
  /** Null: nothing to edit now (a clip playing, or paused between analysed frames). */
  target: DrawTarget | null;
  /** A clip: its keys are on, and Accept/Reject of the shown boxes act on the paused frame. */
  clip: boolean;
  nav: { prev: number | null; next: number | null; position: number };
  onOpen(id: number): void;
  onBack(position?: number): void;
  /** The box to select when the item opens (a mistake opened from the Quality screen). */
  focusKey?: string | null | undefined;
  /** A clip's own keys (play, frame step, detections); false lets the key do its usual thing. */
  onClipAction?(a: ReviewAction): boolean;
  /** Undo or redo on this item went through (a clip shows the frame it changed). */
  onReplayed?(edits: readonly ReviewEdit[], boxes: readonly ReviewBox[]): void;
}

/** Edits name their box when they go out (use-review-edits resolves it). */
const SOME_BOX = { detectionId: null, correctionId: null };
/** Keys that change boxes: off while there is nothing to edit. */
const EDITING = new Set<ReviewAction['kind']>([
  'draw',
  'delete',
  'relabel',
  'accept',
  'reject',
  'acceptShown',
  'rejectShown',
  'nudge',
]);

export function useReviewWorkbench(o: WorkbenchOptions) {
  const { id, solution } = o;
  const edits = useReviewEdits({
    id,
    solution,
    undo: o.undo,
    onOpenItem: o.onOpen,
    onReplayed: o.onReplayed,
  });
  const stage = useRef<StageHandle>(null);
  const labelInput = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [filters, setFilters] = useState<ReviewFilters>({
    threshold: 0,
    label: null,
    hidden: false,
  });
  const [drawMode, setDrawMode] = useState(false);
  const [help, setHelp] = useState(false);
  const [lastLabel, setLastLabel] = useState(o.classes[0] ?? 'object');
  const editable = o.target !== null;

  const reviewed = useReviewedMark(id, solution);

  useEffect(() => {
    setSelected(new Set(o.focusKey ? [o.focusKey] : []));
    setDrawMode(false);
    stage.current?.element()?.focus({ preventScroll: true });
  }, [id]);
  useEffect(() => {
    if (!editable) setDrawMode(false);
  }, [editable]);

  const isShown = useMemo(
    () => shownBy({ minScore: filters.threshold, label: filters.label }),
    [filters.threshold, filters.label],
  );
  const shown = useMemo(() => o.boxes.filter(isShown), [o.boxes, isShown]);
  const byKey = useMemo(() => new Map(o.boxes.map((b) => [b.key, b])), [o.boxes]);
  // The selection keeps only boxes still shown (a deleted or filtered-out box is not acted on).
  const sel = useMemo(() => {
    const keys = new Set(shown.map((b) => b.key));
    return new Set([...selected].map(edits.currentKey).filter((k) => keys.has(k)));
  }, [selected, shown]);
  const labels = useMemo(() => [...new Set(o.itemBoxes.map((b) => b.label))].sort(), [o.itemBoxes]);
  const pickable = useMemo(() => [...new Set([...o.classes, ...labels])], [o.classes, labels]);
  const firstSelected = [...sel].map((k) => byKey.get(k)).find(Boolean);
  const classes = filters.label === null ? undefined : [filters.label];

  const forBoxes = (keys: Iterable<string>, make: (b: ReviewBox) => ReviewEdit, label: string) => {
    const planned: PlannedEdit[] = [...keys].flatMap((key) => {
      const b = byKey.get(key);
      return b ? [{ key, edit: make(b) }] : [];
    });
    void edits.apply(planned, label);
  };
  const forSelected = (make: (b: ReviewBox) => ReviewEdit, label: string) =>
    forBoxes(sel, make, label);
  /** Accept or reject every box shown: the whole image (server-side), or the paused frame. */
  const decideShown = (kind: 'accept' | 'reject') => {
    if (!o.clip) return void edits.bulk(kind, filters.threshold, classes);
    const keys = shown.map((b) => b.key);
    forBoxes(keys, () => ({ kind, box: SOME_BOX }), `${kind} all shown`);
  };
  const onChange = (c: BoxChange) => {
    // Between a clip's analysed frames the boxes are shown, not edited: a drag springs back.
    if (!o.target) return;
    const planned = [...c.boxes].map(([key, bbox]) => ({
      key,
      edit: { kind: c.kind, box: SOME_BOX, bbox },
    }));
    void edits.apply(planned, c.kind);
  };
  const onDraw = (bbox: NormBox) => {
    if (!o.target) return;
    const key = edits.newKey();
    const edit: ReviewEdit = { kind: 'add', ...o.target, label: lastLabel, bbox };
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
    const size = o.picture;
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

  /** Runs a key's action; false lets the key do its usual thing. */
  const run = (a: ReviewAction): boolean => {
    if (!editable && EDITING.has(a.kind)) return false;
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
        decideShown(a.kind === 'acceptShown' ? 'accept' : 'reject');
        break;
      case 'hide':
        setFilters((f) => ({ ...f, hidden: !f.hidden }));
        break;
      case 'next':
      case 'prev': {
        const to = a.kind === 'next' ? o.nav.next : o.nav.prev;
        if (to !== null) o.onOpen(to);
        break;
      }
      case 'back':
        if (drawMode) setDrawMode(false);
        else o.onBack(o.nav.position);
        break;
      case 'undo':
      case 'redo':
        void (a.kind === 'undo' ? edits.undo() : edits.redo());
        break;
      case 'help':
        setHelp(true);
        break;
      case 'markReviewed':
        reviewed.toggle();
        break;
      case 'nudge':
        nudge(a.dx, a.dy);
        break;
      case 'cycle':
        return cycle(a.step);
      case 'play':
      case 'step':
      case 'detection':
        return o.onClipAction?.(a) ?? false;
    }
    return true;
  };
  useReviewKeys({
    hasSelection: sel.size > 0,
    clip: o.clip,
    stage: () => stage.current?.element() ?? null,
    run,
  });

  /** What the box stage needs from the workbench (the caller adds the picture and its boxes). */
  const stageProps = {
    hidden: filters.hidden,
    selected: sel,
    drawMode,
    onSelect: setSelected,
    onChange,
    onDraw,
    handle: stage,
  };

  return {
    stageProps,
    edits,
    stage,
    labelInput,
    filters,
    setFilters,
    isShown,
    shown,
    sel,
    setSelected,
    firstSelected,
    labels,
    pickable,
    drawMode,
    toggleDraw: () => run({ kind: 'draw' }),
    decideShown,
    help,
    setHelp,
    lastLabel,
    setLastLabel,
    relabel,
    onChange,
    onDraw,
    editable,
    reviewed,
  };
}

export type Workbench = ReturnType<typeof useReviewWorkbench>;
