/**
 * Applies changes pulled from the hub to this library, in one transaction with the cursor: a
 * crash before the commit leaves the cursor where it was (the changes come again and are
 * recorded once, by id), after it they are applied and the cursor has moved. Each touched box
 * is brought to its version over every change known of it (box-versions.ts), and written through
 * the store's correction writer, as a person's edit is; the triggers of migration 10 are held off
 * meanwhile, so applied changes do not go out again.
 */
import type { TeamApplyPort, TeamPort } from '../store/store-ports.js';
import type { CorrectionInput } from '../store/store-types.js';
import type { PulledChange, TeamBoxRow, TeamBoxState, TeamChange } from '../store/team-types.js';
import { boxVersion } from './box-versions.js';
import { importedOf } from './imported-state.js';
import { fromWireFrame } from './keyframe-wire.js';
import { writeSettled, type SettledWrite } from './write-settled.js';

/** The correction a box's state stands for; null state: back to the model's box (or gone, if drawn). */
function correctionFrom(
  state: TeamBoxState | null,
  previous: { contentHash: string; solution: string; state: TeamBoxState | null },
): CorrectionInput | null {
  const s = state ?? previous.state;
  if (!s) return null;
  const anchor =
    s.anchorLabel === null
      ? null
      : {
          label: s.anchorLabel,
          score: s.anchorScore,
          bbox: { x: s.anchorX ?? 0, y: s.anchorY ?? 0, w: s.anchorW ?? 0, h: s.anchorH ?? 0 },
        };
  const stated: CorrectionInput = {
    contentHash: previous.contentHash,
    solution: previous.solution,
    ...fromWireFrame(s.frameIndex),
    timeMs: s.timeMs,
    anchor,
    label: s.label,
    bbox: s.x === null ? null : { x: s.x, y: s.y ?? 0, w: s.w ?? 0, h: s.h ?? 0 },
    review: s.review,
    deleted: s.deleted === 1,
    track: s.track,
    ...importedOf(s),
  };
  if (state !== null) return stated;
  // The box as the model has it; a drawn box without a state is gone.
  return anchor
    ? {
        ...stated,
        label: null,
        bbox: null,
        review: 'pending',
        deleted: false,
        track: null,
        personMade: false,
        crowd: false,
        coco: null,
      }
    : { ...stated, review: 'pending', deleted: true, track: null };
}

interface Settled {
  row: TeamBoxRow;
  /** The correction to write for it (with the row's id when it has one), if any. */
  write: CorrectionInput | null;
}

/**
 * Every change known of a box: for a box this library had no record of (most of a day offline's
 * pull), the ones just pulled, as they came, rather than read back and parsed again.
 */
function changesOf(
  store: TeamPort,
  box: string,
  known: TeamBoxRow | undefined,
  pulled: readonly TeamChange[] | undefined,
): TeamChange[] {
  if (known || !pulled || store.team.countOfBox(box) !== pulled.length) {
    return store.team.changesOfBox(box);
  }
  return [...pulled];
}

/** One box's version over every change known of it, and the correction that shows it. */
function settleBox(
  store: TeamPort,
  box: string,
  pulled?: readonly TeamChange[],
): Settled | undefined {
  const known = store.team.box(box);
  const changes = changesOf(store, box, known, pulled);
  if (changes.length === 0) return undefined;
  const version = boxVersion(changes);
  let correctionId = known?.correctionId ?? null;
  if (correctionId !== null && !store.team.hasCorrection(correctionId)) correctionId = null;
  const row = { box, correctionId, heads: version.heads, shown: version.shown.id };
  if (known?.shown === version.shown.id) return { row, write: null };
  const shown = version.shown;
  // A null state keeps the box's last stated geometry to say which box goes back to the model's.
  const lastState = [...changes].reverse().find((c) => c.state !== null)?.state ?? null;
  const correction = correctionFrom(shown.state, {
    contentHash: shown.contentHash,
    solution: shown.solution,
    state: lastState,
  });
  if (!correction || (correctionId === null && shown.state === null)) return { row, write: null };
  return { row, write: { ...correction, ...(correctionId !== null ? { id: correctionId } : {}) } };
}

/**
 * Brings these boxes to their versions and writes what shows them (inside a transaction);
 * `pulled`: the changes just recorded, by box.
 */
function settleBoxes(
  store: TeamApplyPort,
  boxes: Iterable<string>,
  pulled?: ReadonlyMap<string, readonly TeamChange[]>,
): void {
  store.team.applying(true);
  try {
    const settled = [...boxes]
      .map((box) => settleBox(store, box, pulled?.get(box)))
      .filter((s) => s !== undefined);
    const writes = settled.filter((s): s is SettledWrite => s.write !== null);
    // One write of the page: the library view's mirror is refreshed once per file, not per box.
    writeSettled(store, writes);
    // A write keeps a COCO field it is given as null; a state without one clears it.
    for (const s of writes) {
      if (s.write?.id !== undefined && s.write.coco == null)
        store.team.settle.clearCoco(s.write.id);
    }
    store.team.setBoxes(settled.map((s) => s.row));
  } finally {
    store.team.applying(false);
  }
}

/** Records and applies one page of pulled changes and moves the cursor past them, all or nothing. */
export function applyPulled(
  store: TeamApplyPort,
  changes: readonly PulledChange[],
  at: number,
): void {
  if (changes.length === 0) return;
  const byBox = new Map<string, TeamChange[]>();
  for (const c of changes) {
    const list = byBox.get(c.box);
    if (list) list.push(c);
    else byBox.set(c.box, [c]);
  }
  store.transaction(() => {
    settleBoxes(store, store.team.recordPulled(changes), byBox);
    store.team.moveCursor(Math.max(...changes.map((c) => c.seq)), at);
  });
}

/** Brings these boxes to their versions again (their changes were edited here: own-edits.ts). */
export function resettle(store: TeamApplyPort, boxes: Iterable<string>): void {
  store.transaction(() => settleBoxes(store, boxes));
}

/**
 * Records changes made here that no correction save made (a person settling conflicts) and
 * applies them exactly as a desktop that pulls them will: the same rule, the same writes.
 */
export function applyOwn(store: TeamApplyPort, changes: readonly TeamChange[]): void {
  if (changes.length === 0) return;
  store.transaction(() => {
    for (const c of changes) store.team.recordOwn(c);
    settleBoxes(store, new Set(changes.map((c) => c.box)));
  });
}
