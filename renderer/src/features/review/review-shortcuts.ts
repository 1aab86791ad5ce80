/**
 * The review screen's keys: one table drives both the handler and the `?` help, so the help can
 * never list a key that does nothing. Pure.
 */

export type ReviewAction =
  | { kind: 'fit' | 'actual' | 'zoomIn' | 'zoomOut' }
  | { kind: 'draw' | 'delete' | 'relabel' | 'hide' }
  | { kind: 'accept' | 'reject' }
  | { kind: 'acceptShown' | 'rejectShown' }
  | { kind: 'next' | 'prev' | 'back' | 'undo' | 'redo' | 'help' | 'markReviewed' }
  | { kind: 'nudge'; dx: number; dy: number }
  | { kind: 'cycle'; step: 1 | -1 }
  | { kind: 'play' }
  | { kind: 'step' | 'detection'; step: 1 | -1 };

export interface KeyInput {
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  /** Boxes are selected: arrows move them instead of changing item. */
  hasSelection: boolean;
  /** Focus is on the stage: Tab cycles the boxes. */
  onStage: boolean;
  /** A clip is reviewed: Space plays, `,` `.` step a frame, `<` `>` go to a detection. */
  clip?: boolean;
}

/** The clip's own keys (Space would pan an image while held; on a clip it plays). */
const CLIP_KEYS: Record<string, ReviewAction> = {
  ' ': { kind: 'play' },
  ',': { kind: 'step', step: -1 },
  '.': { kind: 'step', step: 1 },
  '<': { kind: 'detection', step: -1 },
  '>': { kind: 'detection', step: 1 },
};

export function reviewAction(k: KeyInput): ReviewAction | null {
  if (k.alt) return null;
  const key = k.key.length === 1 ? k.key.toLowerCase() : k.key;
  if (k.ctrl) {
    if (key === 'z') return { kind: k.shift ? 'redo' : 'undo' };
    if (key === 'y') return { kind: 'redo' };
    return null;
  }
  const arrows: Record<string, [number, number]> = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  const arrow = arrows[k.key];
  if (arrow) {
    const step = k.shift ? 10 : 1;
    if (k.hasSelection) return { kind: 'nudge', dx: arrow[0] * step, dy: arrow[1] * step };
    if (k.key === 'ArrowRight') return { kind: 'next' };
    if (k.key === 'ArrowLeft') return { kind: 'prev' };
    return null;
  }
  if (k.shift && (key === 'a' || key === 'r')) {
    return { kind: key === 'a' ? 'acceptShown' : 'rejectShown' };
  }
  const clipAction = k.clip ? CLIP_KEYS[k.key] : undefined;
  if (clipAction) return clipAction;
  if (k.key === 'Tab') return k.onStage ? { kind: 'cycle', step: k.shift ? -1 : 1 } : null;
  const plain: Record<string, ReviewAction> = {
    '0': { kind: 'fit' },
    '1': { kind: 'actual' },
    '+': { kind: 'zoomIn' },
    '=': { kind: 'zoomIn' },
    '-': { kind: 'zoomOut' },
    n: { kind: 'draw' },
    Delete: { kind: 'delete' },
    Backspace: { kind: 'delete' },
    l: { kind: 'relabel' },
    a: { kind: 'accept' },
    r: { kind: 'reject' },
    h: { kind: 'hide' },
    m: { kind: 'markReviewed' },
    j: { kind: 'next' },
    k: { kind: 'prev' },
    Escape: { kind: 'back' },
    '?': { kind: 'help' },
  };
  return plain[key] ?? null;
}

type Shortcut = [keys: string, what: string];

const CLIP_SHORTCUTS: Shortcut[] = [
  ['Space', 'Play / pause the clip'],
  [', / .', 'One video frame back / on'],
  ['< / > (Previous / Next detection)', 'The previous / next analysed frame with a box shown'],
];

const VIEW_SHORTCUTS: Shortcut[] = [
  ['0', 'Fit the picture to the window'],
  ['1', '100 % (one picture pixel per screen pixel)'],
  ['+ / − / wheel', 'Zoom around the cursor'],
];

const EDIT_SHORTCUTS: Shortcut[] = [
  ['Click, Shift+click', 'Select a box, add a box to the selection'],
  ['Tab / Shift+Tab (on the picture)', 'Select the next / previous box'],
  ['Drag a box, drag a handle', 'Move, resize'],
  ['Arrows, Shift+arrows', 'Move the selected boxes by 1 px, 10 px'],
  ['N', 'Draw a box (then drag)'],
  ['L', 'Relabel the selected boxes'],
  ['A / R', 'Accept / reject the selected boxes'],
  ['Delete / Backspace', 'Delete the selected boxes'],
];

const ITEM_SHORTCUTS: Shortcut[] = [
  ['H', 'Hide or show the boxes'],
  ['M', 'Mark the item reviewed (its boxes become ground truth), or not any more'],
  ['→ / J, ← / K', 'Next / previous item (arrows: when no box is selected)'],
  ['Ctrl+Z, Ctrl+Shift+Z', 'Undo, redo (across items)'],
  ['Esc', 'Back to the library'],
  ['?', 'This help'],
];

/** The `?` help: every key above, as a person reads it (a clip's keys when `clip`). */
export function reviewShortcuts(clip: boolean): Shortcut[] {
  const pan: Shortcut = clip
    ? ['Middle button drag', 'Pan']
    : ['Space + drag, middle button drag', 'Pan'];
  const own: Shortcut[] = clip ? CLIP_SHORTCUTS : [];
  const shown: Shortcut = clip
    ? ['Shift+A / Shift+R', 'Accept / reject every box shown on the paused frame']
    : ['Shift+A / Shift+R', 'Accept / reject every box shown (all above the threshold)'];
  return [...VIEW_SHORTCUTS, pan, ...own, ...EDIT_SHORTCUTS, shown, ...ITEM_SHORTCUTS];
}
