/**
 * The review session store (selection, tool, undo and redo across items) and the edit runner's
 * optimistic edits on a real TanStack QueryClient: cancel the fetch in flight, snapshot, write,
 * roll back on error. The API here is a small double that answers like the application layer
 * (the end-to-end review tests run the real one).
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { CallResult, LabelDeskApi } from '../../../electron/shared/contract/index.js';
import type { ReviewBox, ReviewEdit } from '../../../electron/shared/contract/review-schemas.js';
import {
  boxesQuery,
  createEditRunner,
} from '../../../renderer/src/features/review/review-edit-runner.js';
import {
  createReviewSession,
  type UndoEntry,
} from '../../../renderer/src/features/review/review-session.js';

const box = (key: string, detectionId: number): ReviewBox => ({
  key,
  detectionId,
  correctionId: null,
  frameIndex: 0,
  timeMs: null,
  label: 'person',
  score: 0.8,
  bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
  origin: 'model',
  review: 'pending',
  deleted: false,
  model: null,
  trackId: null,
});
const entry = (itemId: number, label: string): UndoEntry => ({
  itemId,
  solution: 's',
  label,
  edits: [{ kind: 'accept', box: { detectionId: 1, correctionId: null } }],
});

/** Answers review.edit for the boxes it holds; a box it does not hold is an unknown_box error. */
function fakeApi(held: Map<number, ReviewBox>, gate: { wait: Promise<void> }) {
  const calls: string[] = [];
  const api = {
    async call(name: string, input: { edit?: ReviewEdit; edits?: ReviewEdit[] }) {
      calls.push(name);
      await gate.wait;
      const edits = input.edit ? [input.edit] : (input.edits ?? []);
      const inverse = edits.map((e): ReviewEdit => {
        if (e.kind === 'add') throw new Error('not in this test');
        const b = e.box.detectionId === null ? undefined : held.get(e.box.detectionId);
        if (!b)
          throw Object.assign(new Error('gone'), {
            code: 'unknown_box',
            message: 'That box is no longer there.',
          });
        const before = b.review;
        if (e.kind === 'accept' || e.kind === 'reject') {
          held.set(b.detectionId!, { ...b, review: e.kind === 'accept' ? 'accepted' : 'rejected' });
        }
        return { kind: before === 'pending' ? 'reset' : 'accept', box: e.box };
      });
      const [one] = inverse;
      if (name === 'review.edit') {
        const ref = input.edit && 'box' in input.edit ? input.edit.box.detectionId : null;
        return { box: ref === null ? null : (held.get(ref) ?? null), inverse: one };
      }
      return { inverse };
    },
  };
  return { api: api as unknown as Pick<LabelDeskApi, 'call'>, calls };
}

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const held = new Map([
    [1, box('d1', 1)],
    [2, box('d2', 2)],
  ]);
  const data: CallResult<'review.boxes'> = {
    analysedWidth: 10,
    analysedHeight: 10,
    boxes: [...held.values()],
  };
  client.setQueryData(boxesQuery(7, 's'), data);
  const session = createReviewSession();
  const gate = { wait: Promise.resolve() };
  const { api, calls } = fakeApi(held, gate);
  const runner = createEditRunner(client, api, session);
  const shown = () =>
    client.getQueryData<CallResult<'review.boxes'>>(boxesQuery(7, 's'))?.boxes ?? [];
  return { client, held, session, runner, shown, calls, gate };
}

describe('the review session store', () => {
  it('undoes newest first, redoes what was undone, and a new action clears redo', () => {
    const u = createReviewSession();
    let changes = 0;
    u.subscribe(() => changes++);
    u.record(entry(1, 'move'));
    u.record(entry(2, 'delete'));
    const a = u.takeUndo();
    expect(a?.itemId).toBe(2);
    u.undone({ ...a!, label: 'redo delete' });
    expect(u.get().redos.length).toBe(1);
    expect(u.takeRedo()?.label).toBe('redo delete');
    u.redone(entry(2, 'delete again'));
    expect(u.get().undos.at(-1)?.label).toBe('delete again');
    u.takeUndo();
    u.undone(entry(2, 'x'));
    u.record(entry(3, 'draw'));
    expect(u.get().redos).toEqual([]);
    expect(changes).toBeGreaterThanOrEqual(8);
  });

  it('puts an entry back when its call fails, ignores empty actions, keeps a bounded history', () => {
    const u = createReviewSession(3);
    u.record({ ...entry(1, 'nothing'), edits: [] });
    expect(u.get().undos).toEqual([]);
    for (let i = 0; i < 5; i++) u.record(entry(i, `e${i}`));
    const taken = u.takeUndo()!;
    u.restoreUndo(taken);
    const labels: string[] = [];
    for (let e = u.takeUndo(); e; e = u.takeUndo()) labels.push(e.label);
    expect(labels).toEqual(['e4', 'e3', 'e2']);
  });

  it('keeps the selection and tool per item, the undo history across items', () => {
    const u = createReviewSession();
    u.record(entry(1, 'move'));
    u.select(new Set(['d1']));
    u.setTool('draw');
    const before = u.get();
    u.resetItem();
    expect(u.get().selected.size).toBe(0);
    expect(u.get().tool).toBe('select');
    expect(u.get().undos).toBe(before.undos);
    // A drawn box's temporary key is never reused in the session (an old rename would catch it).
    const first = u.newKey();
    u.rename(first, 'c9');
    u.resetItem();
    expect(u.newKey()).not.toBe(first);
    expect(u.currentKey(first)).toBe('c9');
  });
});

describe('optimistic review edits', () => {
  it('shows an edit at once, saves it, and records its undo; undo and redo replay it', async () => {
    const { runner, session, shown, held } = setup();
    const saving = runner.apply(
      7,
      's',
      [{ key: 'd1', edit: { kind: 'accept', box: { detectionId: null, correctionId: null } } }],
      'accept',
    );
    expect(shown()[0]?.review).toBe('accepted');
    await saving;
    expect(held.get(1)?.review).toBe('accepted');
    expect(session.get().undos.map((e) => e.label)).toEqual(['accept']);
    expect(session.get().error).toBe(null);
    await runner.undo();
    expect(session.get().undos).toEqual([]);
    expect(session.get().redos.length).toBe(1);
  });

  it('rolls a failed edit back to the snapshot, says why, and records nothing to undo', async () => {
    const { runner, session, shown, held } = setup();
    held.delete(2); // deleted underneath: the server no longer has it
    const accept = { kind: 'accept' as const, box: { detectionId: null, correctionId: null } };
    const first = runner.apply(7, 's', [{ key: 'd2', edit: accept }], 'accept');
    const second = runner.apply(7, 's', [{ key: 'd1', edit: accept }], 'accept');
    expect(shown().map((b) => b.review)).toEqual(['accepted', 'accepted']);
    await Promise.all([first, second]);
    // d2 is back as it was; d1, saved after it, keeps its edit.
    expect(shown().map((b) => b.review)).toEqual(['accepted', 'pending']);
    expect(session.get().error?.code).toBe('unknown_box');
    expect(session.get().undos.map((e) => e.label)).toEqual(['accept']);
  });

  it('cancels a fetch in flight so that its older answer does not overwrite the edit', async () => {
    const { client, runner, shown, gate } = setup();
    let open: () => void = () => undefined;
    gate.wait = new Promise((resolve) => (open = resolve));
    let answer: (v: CallResult<'review.boxes'>) => void = () => undefined;
    const stale = { analysedWidth: 10, analysedHeight: 10, boxes: [box('d1', 1), box('d2', 2)] };
    const fetching = client.fetchQuery({
      queryKey: boxesQuery(7, 's'),
      queryFn: () => new Promise<CallResult<'review.boxes'>>((resolve) => (answer = resolve)),
    });
    const accept = { kind: 'accept' as const, box: { detectionId: null, correctionId: null } };
    const saving = runner.apply(7, 's', [{ key: 'd1', edit: accept }], 'accept');
    answer(stale);
    await fetching.catch(() => undefined);
    // The save has not answered yet: what is shown is the edit, not the older fetch.
    expect(shown()[0]?.review).toBe('accepted');
    open();
    await saving;
    expect(shown()[0]?.review).toBe('accepted');
  });

  it('an answer does not take back a later edit of the same box still being saved', async () => {
    const { runner, shown, gate, held } = setup();
    let openFirst: () => void = () => undefined;
    gate.wait = new Promise((resolve) => (openFirst = resolve));
    const ref = { detectionId: null, correctionId: null };
    const first = runner.apply(7, 's', [{ key: 'd1', edit: { kind: 'accept', box: ref } }], 'a');
    const second = runner.apply(7, 's', [{ key: 'd1', edit: { kind: 'reject', box: ref } }], 'r');
    expect(shown()[0]?.review).toBe('rejected');
    await new Promise((r) => setTimeout(r, 0)); // the first call is now waiting on its gate
    // The first save answers ("accepted") while the second is still on its way.
    let openSecond: () => void = () => undefined;
    gate.wait = new Promise((resolve) => (openSecond = resolve));
    openFirst();
    await first;
    expect(held.get(1)?.review).toBe('accepted');
    expect(shown()[0]?.review).toBe('rejected');
    openSecond();
    await second;
    expect(held.get(1)?.review).toBe('rejected');
    expect(shown()[0]).toEqual(held.get(1));
  });
});
