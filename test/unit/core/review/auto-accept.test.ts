/**
 * Auto-accept: which boxes a rule takes (pure), and the batch as one undoable step in the store:
 * undo gives back exactly the rows and mirror as they were, a person's later edit makes a box the
 * person's (undo leaves it), and "only accepted by a person" leaves rule boxes out of exports.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boxesToAutoAccept, ruleText } from '../../../../electron/core/review/auto-accept.js';
import { mergeCorrections } from '../../../../electron/core/review/merge-corrections.js';
import type { RuleAcceptance } from '../../../../electron/core/store/store-types.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import {
  box,
  correction,
  mediaRow,
  result,
  storeFixture,
  type StoreFixture,
} from '../store/store-fixture.js';

let fx: StoreFixture;
const P = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
const D = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };
const C = { x: 0.05, y: 0.6, w: 0.25, h: 0.3 };
const rule = { target: 0.95, thresholds: new Map([['person', 0.8]]) };

function put(...args: Parameters<typeof correction>) {
  return fx.store.corrections.put(correction(...args));
}

function merged(contentHash: string) {
  const r = fx.store.results.find(contentHash, 'objects');
  if (!r) throw new Error(`no result for ${contentHash}`);
  return mergeCorrections(
    fx.store.results.detections(r.id),
    fx.store.corrections.forContent(contentHash, 'objects'),
    { includeDeleted: true },
  );
}

/** The plan the application layer makes: every unreviewed content's chosen boxes. */
function plan(): { contents: RuleAcceptance[]; files: number } {
  const contents: RuleAcceptance[] = [];
  let files = 0;
  for (const c of fx.store.ruleBatches.unreviewed('objects')) {
    const chosen = boxesToAutoAccept(merged(c.contentHash), rule);
    if (!chosen.length) continue;
    files += c.files;
    contents.push({
      contentHash: c.contentHash,
      boxes: chosen.map((b) => ({
        correctionId: b.correctionId,
        frameIndex: b.frameIndex,
        timeMs: b.timeMs,
        model: b.model as NonNullable<typeof b.model>,
        rule: ruleText('person', 0.8, 0.95),
      })),
    });
  }
  return { contents, files };
}

function snapshot() {
  const db = openDatabase(fx.file);
  try {
    return {
      corrections: db.prepare('SELECT * FROM corrections ORDER BY id').all(),
      detections: db.prepare('SELECT id, review, origin FROM detections ORDER BY id').all(),
      counts: db.prepare('SELECT id, box_count FROM results ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/a-copy.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/b.jpg', { contentHash: 'hb' }),
    mediaRow(f.id, '/lib/r.jpg', { contentHash: 'hr' }),
  ]);
  const boxes = [
    box('person', 0.9, { bbox: P }),
    box('person', 0.85, { bbox: D }),
    box('person', 0.5, { bbox: C }),
  ];
  fx.store.results.saveMany([result('ha', boxes), result('hb', boxes), result('hr', boxes)]);
  const reviewed = fx.store.media.byPath('/lib/r.jpg');
  fx.store.reviewed.markReviewed([reviewed?.id ?? 0], 'objects', 'person');
});
afterEach(() => fx.done());

describe('boxesToAutoAccept', () => {
  it('takes pending, unchanged model boxes at or above their class threshold only', () => {
    put('hb', { label: 'person', score: 0.9, bbox: P }, { review: 'rejected' });
    put('hb', { label: 'person', score: 0.85, bbox: D }, { label: 'dog' });
    expect(boxesToAutoAccept(merged('ha'), rule).map((b) => b.model?.score)).toEqual([0.9, 0.85]);
    expect(boxesToAutoAccept(merged('hb'), rule)).toEqual([]);
    const none = { target: 0.95, thresholds: new Map<string, number>() };
    expect(boxesToAutoAccept(merged('ha'), none)).toEqual([]);
    const exact = { target: 0.95, thresholds: new Map([['person', 0.85]]) };
    expect(boxesToAutoAccept(merged('ha'), exact).map((b) => b.model?.score)).toEqual([0.9, 0.85]);
  });

  it('never takes a box without a score: no score is not "at or above" a threshold', () => {
    const W = { x: 0.4, y: 0.4, w: 0.2, h: 0.2 };
    fx.store.results.save(
      result('hb', [box('person', 0.9, { bbox: P }), box('person', 0.9, { bbox: W, score: null })]),
    );
    const shown = merged('hb');
    expect(shown.map((b) => b.score)).toEqual([0.9, null]);
    expect(boxesToAutoAccept(shown, rule).map((b) => b.model?.score)).toEqual([0.9]);
    const lowest = { target: 0.95, thresholds: new Map([['person', 0]]) };
    expect(boxesToAutoAccept(shown, lowest).map((b) => b.model?.score)).toEqual([0.9]);
  });

  it('names its rule', () => {
    expect(ruleText('person', 0.8, 0.95)).toBe('person score ≥ 0.800 (target precision 95 %)');
  });
});

describe('rule batches', () => {
  it('accepts on unreviewed files only, as the rule, and undo restores exactly', () => {
    // A pending correction a person left (accepted, then put back): updated, then restored.
    put('ha', { label: 'person', score: 0.85, bbox: D }, { review: 'pending' });
    fx.clock.t += 1000;
    const before = snapshot();
    const { contents, files } = plan();
    expect(contents.map((c) => c.contentHash)).toEqual(['ha', 'hb']);
    expect(files).toBe(3);
    const id = fx.store.ruleBatches.apply('objects', 0.95, files, contents);
    expect(fx.store.ruleBatches.latest('objects')).toEqual({ id, boxes: 4, files: 3 });
    const shown = merged('ha');
    expect(shown.map((b) => [b.review, b.rule])).toEqual([
      ['accepted', 'person score ≥ 0.800 (target precision 95 %)'],
      ['accepted', 'person score ≥ 0.800 (target precision 95 %)'],
      ['pending', null],
    ]);
    expect(merged('hr').every((b) => b.review === 'pending')).toBe(true);
    expect(snapshot()).not.toEqual(before);

    fx.clock.t += 1000;
    expect(fx.store.ruleBatches.undo(id)).toBe(4);
    expect(snapshot()).toEqual(before);
    expect(fx.store.ruleBatches.undo(id)).toBeNull();
    expect(fx.store.ruleBatches.latest('objects')).toBeUndefined();
  });

  it('a person’s later edit makes the box the person’s, and undo leaves it so', () => {
    const id = fx.store.ruleBatches.apply('objects', 0.95, 3, plan().contents);
    const ruled = merged('hb')[0];
    expect(ruled?.rule).not.toBeNull();
    put('hb', ruled?.model ?? null, {
      id: ruled?.correctionId ?? 0,
      label: 'man',
      review: 'accepted',
    });
    expect(merged('hb')[0]).toMatchObject({ label: 'man', review: 'accepted', rule: null });
    expect(fx.store.ruleBatches.undo(id)).toBe(3);
    expect(merged('hb').map((b) => [b.label, b.review])).toEqual([
      ['man', 'accepted'],
      ['person', 'pending'],
      ['person', 'pending'],
    ]);
  });

  it('keeps rule boxes through re-analysis, and exports them unless by a person only', () => {
    fx.store.ruleBatches.apply('objects', 0.95, 3, plan().contents);
    put('hb', { label: 'person', score: 0.5, bbox: C }, { review: 'accepted' });
    fx.store.results.save(
      result('hb', [box('person', 0.91, { bbox: P }), box('person', 0.5, { bbox: C })]),
    );
    const exported = (byPerson: boolean) =>
      [...fx.store.exportItems({ solution: 'objects', onlyAccepted: true, byPerson })].map((i) => [
        i.media.path,
        i.detections.map((d) => d.score),
      ]);
    expect(exported(false)).toEqual([
      ['/lib/a-copy.jpg', [0.9, 0.85]],
      ['/lib/a.jpg', [0.9, 0.85]],
      // The accepted box the new answer no longer has stays, like any correction.
      ['/lib/b.jpg', [0.91, 0.5, 0.85]],
      ['/lib/r.jpg', []],
    ]);
    expect(exported(true)).toEqual([
      ['/lib/a-copy.jpg', []],
      ['/lib/a.jpg', []],
      ['/lib/b.jpg', [0.5]],
      ['/lib/r.jpg', []],
    ]);
  });
});
