/**
 * The review workbench shared by images and a clip's paused frame: which boxes are shown (threshold,
 * class, hidden), the selection, draw mode, the label for new boxes, and what every tool and key
 * does to the boxes in scope (an image's boxes, or the paused frame's). Edits go through
 * useReviewEdits, so they are shown and saved at once and undone across items. The selection and
 * the tool live in the review session store; the keys are the registry's review commands.
 */
import { findConflicts } from '@shared/geometry/conflicts.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';
import { translateWithin, type NormBox, type Size } from '@shared/geometry/box-math.js';
import { shownBy } from './box-filter.js';
import { mergeConflicts } from './conflict-rows.js';
import type { BoxChange, StageHandle } from './box-stage.js';
import type { CommandId } from '@shared/keyboard/registry.js';
import { helpStore, openHelp } from '../../keyboard/help-state.js';
import { useCommands, type CommandHandlers } from '../../keyboard/use-commands.js';
import { useStore } from '../../state/small-store.js';
import type { ReviewFilters } from './review-toolbar.js';
import type { ReviewSession } from './review-session.js';
import { useReviewEdits, type PlannedEdit, type ReviewEdits } from './use-review-edits.js';
import { useReviewedMark } from './use-reviewed-mark.js';
import { useLibraryMinScore } from '../library/use-library-min-score.js';
import { useReviewNext } from './use-review-next.js';
import { useTeamConflicts } from './use-team-conflicts.js';

/** A clip's own keys and buttons: play or pause, a frame step, the next box on another frame. */
export type ClipAction = { kind: 'play' } | { kind: 'step' | 'detection'; step: 1 | -1 };

/** Where a drawn box goes: frame 0 of an image, or a clip's analysed frame. */
export interface DrawTarget {
  /** A sample's index; with `keyframe`, a clip frame between samples. */
  frameIndex: number;
  keyframe?: true | undefined;
  timeMs: number | null;
}

export interface WorkbenchOptions {
  id: number;
  solution: string;
  classes: readonly string[];
  session: ReviewSession;
  /** Every box of the item (class filter choices, new labels). */
  itemBoxes: readonly ReviewBox[];
  /** The boxes the tools act on: the image's, or the paused frame's. */
  boxes: readonly ReviewBox[];
  picture: Size | null;
  /** Null: nothing to edit now (a clip playing, or paused between analysed frames). */
  target: DrawTarget | null;
  /** A clip: its keys are on, and Accept/Reject of the shown boxes act on the paused frame. */
  clip: boolean;
  /** The file's boxes are known and none is left that is not rejected (Review next asks first). */
  emptyFile?: boolean;
  nav: { prev: number | null; next: number | null; position: number };
  onOpen(id: number): void;
  onBack(position?: number): void;
  /** The box to select when the item opens (a mistake opened from the Quality screen). */
  focusKey?: string | null | undefined;
  /** A clip's own keys (play, frame step, detections); false lets the key do its usual thing. */
  onClipAction?(a: ClipAction): boolean;
  /** Undo or redo on this item went through (a clip shows the frame it changed). */
  onReplayed?(edits: readonly ReviewEdit[], boxes: readonly ReviewBox[]): void;
  /** A clip's keyframes: a drawn or changed box they take (answering true) is theirs to save. */
  keyframes?: KeyframeHooks | undefined;
}

export interface KeyframeHooks {
  draw(bbox: NormBox, label: string, edits: ReviewEdits): boolean;
  change(c: BoxChange, edits: ReviewEdits): boolean;
}

/** Edits name their box when they go out (use-review-edits resolves it). */
const SOME_BOX = { detectionId: null, correctionId: null };
/** Keys that change boxes: off while there is nothing to edit. */
const EDITING = new Set<CommandId>([
  'review.draw',
  'review.delete',
  'review.relabel',
  'review.accept',
  'review.reject',
  'review.keepClass',
  'review.keepVersion',
  'review.acceptShown',
  'review.rejectShown',
  'review.nudge',
  'review.nudgeFar',
]);
const pressable = (t: EventTarget | null) =>
  t instanceof HTMLElement && t.closest('button, a[href], summary, [role="button"]') !== null;
const ARROW_STEP: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function useReviewWorkbench(o: WorkbenchOptions) {
  const { id, solution } = o;
  const edits = useReviewEdits({
    id,
    solution,
    session: o.session,
    onOpenItem: o.onOpen,
    onReplayed: o.onReplayed,
  });
  const stage = useRef<StageHandle>(null);
  const labelInput = useRef<HTMLInputElement>(null);
  // Counts the times the person left the label field: the field's focus a frame after a draw must
  // not take it back once they have typed a label and left (a late frame did, in CI).
  const labelLeft = useRef(0);
  const labelDone = () => {
    labelLeft.current++;
    stage.current?.element()?.focus({ preventScroll: true });
  };
  const { session } = o;
  const selected = useStore(session, (s) => s.selected);
  const drawMode = useStore(session, (s) => s.tool === 'draw');
  const setSelected = useCallback(
    (next: ReadonlySet<string> | ((s: ReadonlySet<string>) => ReadonlySet<string>)) =>
      session.select(typeof next === 'function' ? next(session.get().selected) : next),
    [session],
  );
  const setDrawMode = useCallback(
    (draw: boolean) => session.setTool(draw ? 'draw' : 'select'),
    [session],
  );
  const [filters, setFilters] = useState<ReviewFilters>({
    threshold: 0,
    label: null,
    hidden: false,
  });
  // Starts at the library's minimum score, as an export does; the slider goes below it.
  // (unless the person moved the slider before it loaded).
  useLibraryMinScore((threshold) =>
    setFilters((f) => (f.threshold === 0 ? { ...f, threshold } : f)),
  );
  const [lastLabel, setLastLabel] = useState(o.classes[0] ?? 'object');
  const editable = o.target !== null;

  const reviewed = useReviewedMark(id, solution);
  const reviewNext = useReviewNext(id, solution, o.onOpen, o.emptyFile === true);

  useEffect(() => {
    session.resetItem();
    if (o.focusKey) session.select(new Set([o.focusKey]));
    stage.current?.element()?.focus({ preventScroll: true });
  }, [id, session]);
  // While this review is open, `?` lists its keys (a clip's beside the image's).
  useEffect(() => {
    helpStore.set((h) => ({ ...h, review: o.clip ? 'clip' : 'image' }));
    return () => helpStore.set((h) => ({ ...h, review: null }));
  }, [o.clip]);
  useEffect(() => {
    if (!editable) setDrawMode(false);
  }, [editable, setDrawMode]);

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
  }, [selected, shown, edits.currentKey]);
  const labels = useMemo(() => classesOf(o.itemBoxes), [o.itemBoxes]);
  const pickable = useMemo(() => [...new Set([...o.classes, ...labels])], [o.classes, labels]);
  const firstSelected = [...sel].map((k) => byKey.get(k)).find(Boolean);
  const groups = useMemo(() => findConflicts(o.boxes), [o.boxes]);
  // Each conflict (one object, several classes) is one row and one box: its chosen box's.
  const merged = useMemo(
    () => mergeConflicts(shown, groups, byKey, sel),
    [shown, groups, byKey, sel],
  );
  const team = useTeamConflicts(id, o.itemBoxes);
  const drawn = useMemo(() => team.withVersions(merged.drawn), [team.withVersions, merged.drawn]);
  /** Keeps the selected box's class on its object: the other boxes of its conflict are rejected. */
  const keepClass = (): boolean => {
    const kept = firstSelected?.key;
    const group = groups.find((g) => kept !== undefined && g.includes(kept));
    if (!group) return false;
    forBoxes(
      group.filter((k) => k !== kept),
      () => ({ kind: 'reject', box: SOME_BOX }),
      'keep class',
    );
    return true;
  };
  /** The selected conflict's next class becomes the chosen one (its box is selected). */
  const nextConflictClass = (): boolean => {
    const c = firstSelected ? merged.conflicts.get(firstSelected.key) : undefined;
    const next = c?.members[(c.chosen + 1) % c.members.length];
    if (!next) return false;
    setSelected(new Set([next.key]));
    return true;
  };
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
    if (o.keyframes?.change(c, edits)) return;
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
    if (o.keyframes?.draw(bbox, lastLabel, edits)) return setDrawMode(false);
    const key = edits.newKey();
    const edit: ReviewEdit = { kind: 'add', ...o.target, label: lastLabel, bbox };
    void edits.apply([{ key, edit }], 'draw');
    setDrawMode(false);
    setSelected(new Set([key]));
    // The new box takes the last label; the field is ready to change it at once.
    const left = labelLeft.current;
    requestAnimationFrame(() => {
      if (labelLeft.current === left) labelInput.current?.select();
    });
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

  const go = (to: number | null) => void (to !== null && o.onOpen(to));
  const nudgeBy = (chord: string, step: number) => {
    const [dx, dy] = ARROW_STEP[chord.replace('Shift+', '')] ?? [0, 0];
    nudge(dx * step, dy * step);
  };
  const clipKey = (a: ClipAction) => () => o.onClipAction?.(a) ?? false;
  /** What each review command does; false lets the key do its usual thing. */
  const handlers: CommandHandlers = {
    'review.fit': () => stage.current?.fit(),
    'review.actual': () => stage.current?.actual(),
    'review.zoomIn': () => stage.current?.zoom(true),
    'review.zoomOut': () => stage.current?.zoom(false),
    'review.draw': () => setDrawMode(!drawMode),
    'review.delete': () => {
      forSelected(() => ({ kind: 'delete', box: SOME_BOX }), 'delete');
      setSelected(new Set());
    },
    'review.relabel': () => (sel.size === 0 ? false : labelInput.current?.select()),
    'review.accept': () => forSelected(() => ({ kind: 'accept', box: SOME_BOX }), 'accept'),
    'review.reject': () => forSelected(() => ({ kind: 'reject', box: SOME_BOX }), 'reject'),
    'review.keepClass': () => keepClass(),
    'review.conflictClass': () => nextConflictClass(),
    'review.keepVersion': () => team.keep(firstSelected?.key),
    'review.nextVersion': () => team.next(firstSelected?.key),
    'review.acceptShown': () => decideShown('accept'),
    'review.rejectShown': () => decideShown('reject'),
    'review.hide': () => setFilters((f) => ({ ...f, hidden: !f.hidden })),
    'review.next': () => go(o.nav.next),
    'review.previous': () => go(o.nav.prev),
    'review.nextByArrow': () => go(o.nav.next),
    'review.previousByArrow': () => go(o.nav.prev),
    'review.back': () => (drawMode ? setDrawMode(false) : o.onBack(o.nav.position)),
    'review.markReviewed': () => reviewed.toggle(),
    // Enter on a focused button or link presses it, as usual.
    'review.reviewNext': (_chord, e) => !pressable(e.target) && reviewNext.go(),
    'review.undo': () => void edits.undo(),
    'review.redo': () => void edits.redo(),
    'review.nudge': (chord) => nudgeBy(chord, 1),
    'review.nudgeFar': (chord) => nudgeBy(chord, 10),
    'review.cycle': () => onStage() && cycle(1),
    'review.cycleBack': () => onStage() && cycle(-1),
    'clip.play': clipKey({ kind: 'play' }),
    'clip.stepBack': clipKey({ kind: 'step', step: -1 }),
    'clip.stepOn': clipKey({ kind: 'step', step: 1 }),
    'clip.previousDetection': clipKey({ kind: 'detection', step: -1 }),
    'clip.nextDetection': clipKey({ kind: 'detection', step: 1 }),
  };
  const onStage = () => {
    const el = stage.current?.element();
    return el !== null && el !== undefined && document.activeElement === el;
  };
  for (const command of EDITING) if (!editable) handlers[command] = () => false;
  useCommands(o.clip ? 'clip' : 'image', { handlers, selection: sel.size > 0 });

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
    labelDone,
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
    toggleDraw: () => editable && setDrawMode(!drawMode),
    decideShown,
    openHelp,
    lastLabel,
    setLastLabel,
    relabel,
    onChange,
    onDraw,
    editable,
    reviewed,
    reviewNext,
    /** The Boxes list's rows and what the stage draws: each conflict merged into one. */
    rows: merged.rows,
    drawn,
    conflicts: merged.conflicts,
    /** Boxes another team member changed too (both versions drawn; V keeps one). */
    team,
  };
}

export type Workbench = ReturnType<typeof useReviewWorkbench>;

/** The classes among `boxes`, sorted (a clip has tens of thousands: no array of labels between). */
function classesOf(boxes: readonly ReviewBox[]): string[] {
  const labels = new Set<string>();
  for (let i = 0; i < boxes.length; i++) labels.add((boxes[i] as ReviewBox).label);
  return [...labels].sort();
}
