/**
 * The export's own reading of corrections (only the columns the merge uses, as arrays) gives
 * exactly the boxes the review screen's merge gives from the repository's full rows, on a library
 * with every kind of correction.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passes } from '../../../../electron/core/review/export-boxes.js';
import { placeTracks } from '../../../../electron/core/review/place-tracks.js';
import { trackModelBoxes } from '../../../../electron/core/tracking/model-tracks.js';
import { mergeCorrections } from '../../../../electron/core/review/merge-corrections.js';
import {
  MERGE_CORRECTION_COLUMNS,
  toMergeCorrection,
  type RawMergeCorrection,
} from '../../../../electron/core/store/correction-rows.js';
import type {
  BoxXYWH,
  DetectionRow,
  ExportQuery,
} from '../../../../electron/core/store/store-types.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import {
  box,
  correction,
  mediaRow,
  result,
  storeFixture,
  type StoreFixture,
} from './store-fixture.js';

let fx: StoreFixture;
const P = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
const D = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };
const C = { x: 0.05, y: 0.6, w: 0.25, h: 0.3 };
const at = (b: BoxXYWH, dx: number) => ({ ...b, x: b.x + dx });

/** Stores a correction (see `correction`). */
function put(...args: Parameters<typeof correction>) {
  return fx.store.corrections.put(correction(...args));
}

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/a-copy.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/b.jpg', { contentHash: 'hb' }),
    mediaRow(f.id, '/lib/c.jpg', { contentHash: 'hc' }),
    mediaRow(f.id, '/lib/d.jpg', { contentHash: 'hd' }),
    mediaRow(f.id, '/lib/e.jpg', { contentHash: 'he' }),
    mediaRow(f.id, '/lib/v.mp4', { contentHash: 'hv', kind: 'video', fps: 10 }),
  ]);
  const person = box('person', 0.9, { bbox: P });
  const dog = box('dog', 0.5, { bbox: D });
  const cat = box('cat', 0.7, { bbox: C });
  fx.store.results.saveMany([
    result('ha', [person, dog, cat]),
    result('hb', [person, dog, cat]),
    result('hc', [person, dog]),
    // Two identical model boxes: the greedy pairing, not a unique match, decides.
    result('hd', [person, person, dog]),
    // More boxes than the exact-anchor fast path takes.
    result(
      'he',
      Array.from({ length: 70 }, (_, i) =>
        box(i % 2 ? 'dog' : 'person', 0.3 + i / 200, { bbox: { ...P, x: i / 100 } }),
      ),
    ),
    result(
      'hv',
      [0, 1, 2].flatMap((frameIndex) => [
        box('person', 0.8, { frameIndex, timeMs: frameIndex * 100, bbox: at(P, frameIndex / 100) }),
        box('dog', 0.6, { frameIndex, timeMs: frameIndex * 100, bbox: at(D, frameIndex / 100) }),
      ]),
    ),
  ]);
  const a = (label: string, score: number, bbox: BoxXYWH) => ({ label, score, bbox });

  // ha (two files share it): move, relabel + accept, resize + reject, drawn, drawn then deleted.
  put('ha', a('person', 0.9, P), { bbox: at(P, 0.05) });
  put('ha', a('dog', 0.5, D), { label: 'wolf', review: 'accepted' });
  put('ha', a('cat', 0.7, C), { bbox: { ...C, w: 0.1, h: 0.1 }, review: 'rejected' });
  put('ha', null, { label: 'bird', bbox: { x: 0.8, y: 0.8, w: 0.1, h: 0.1 }, review: 'accepted' });
  put('ha', null, { label: 'fish', bbox: { x: 0.7, y: 0.7, w: 0.1, h: 0.1 }, deleted: true });

  // hb: accepted, deleted and edited boxes, then re-analysed: the person comes back slightly
  // moved (paired by overlap), the dog exactly (stays deleted), the cat is gone (its edit stays).
  put('hb', a('person', 0.9, P), { review: 'accepted' });
  put('hb', a('dog', 0.5, D), { deleted: true });
  put('hb', a('cat', 0.7, C), { label: 'lynx' });
  put('hb', a('horse', 0.4, { x: 0.4, y: 0.4, w: 0.1, h: 0.1 })); // touched, no work: hidden
  fx.store.results.save(
    result('hb', [
      box('person', 0.92, { bbox: at(P, 0.001) }),
      dog,
      box('cow', 0.6, { bbox: { x: 0.3, y: 0.7, w: 0.2, h: 0.2 } }),
    ]),
  );

  // hd: two corrections on the same duplicated model box.
  put('hd', a('person', 0.9, P), { review: 'accepted' });
  put('hd', a('person', 0.9, P), { label: 'man', review: 'rejected' });

  // he: 70 boxes, a few corrections.
  put('he', a('dog', 0.3 + 3 / 200, { ...P, x: 0.03 }), { label: 'wolf' });
  put('he', a('person', 0.3 + 4 / 200, { ...P, x: 0.04 }), { deleted: true });
  put('he', a('person', 0.3, { ...P, x: 0 }), { review: 'accepted' });

  // hv: a clip, edits on two frames and a box drawn on one.
  put('hv', a('person', 0.8, at(P, 0.01)), { frameIndex: 1, timeMs: 100, bbox: at(P, 0.02) });
  put('hv', a('dog', 0.6, at(D, 0.02)), { frameIndex: 2, timeMs: 200, deleted: true });
  put('hv', null, {
    frameIndex: 2,
    timeMs: 200,
    label: 'cat',
    bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 },
    review: 'accepted',
  });
});
afterEach(() => fx.done());

const fields = (d: DetectionRow & { trackId?: number }) => ({
  id: d.id,
  resultId: d.resultId,
  frameIndex: d.frameIndex,
  timeMs: d.timeMs,
  label: d.label,
  classId: d.classId,
  score: d.score,
  bbox: d.bbox,
  origin: d.origin,
  review: d.review,
  trackId: d.trackId,
});

/** The corrected set as the review screen sees it, filtered as an export filters. */
function expected(q: ExportQuery) {
  return [...fx.store.exportItems(q)].map(({ media, result: r }) => {
    const model = fx.store.results
      .detections(r.id)
      .sort((x, y) => x.frameIndex - y.frameIndex || x.id - y.id);
    const merged = mergeCorrections(
      model,
      fx.store.corrections.forContent(r.contentHash, r.solution),
    );
    const boxes = media.kind === 'video' ? placeTracks(merged, trackModelBoxes(model)) : merged;
    return { path: media.path, boxes: boxes.filter((b) => passes(b, q)).map(fields) };
  });
}

const actual = (q: ExportQuery) =>
  [...fx.store.exportItems(q)].map(({ media, detections }) => ({
    path: media.path,
    boxes: detections.map(fields),
  }));

describe('the corrected export', () => {
  it('gives the boxes of the merge, for every kind of correction and every filter', () => {
    const queries: ExportQuery[] = [
      { solution: 'objects' },
      { solution: 'objects', onlyAccepted: true },
      { solution: 'objects', includeRejected: true },
      { solution: 'objects', classes: ['wolf', 'bird', 'person'] },
      { solution: 'objects', minScore: 0.6, skipEmpty: true },
    ];
    for (const q of queries) expect(actual(q)).toEqual(expected(q));
    // The library really holds every case (a guard against a fixture that tests nothing).
    const all = actual({ solution: 'objects', includeRejected: true });
    const labels = (path: string) => all.find((i) => i.path === path)?.boxes.map((b) => b.label);
    expect(labels('/lib/a.jpg')).toEqual(['person', 'wolf', 'cat', 'bird']);
    expect(labels('/lib/a-copy.jpg')).toEqual(labels('/lib/a.jpg'));
    expect(labels('/lib/b.jpg')).toEqual(['person', 'cow', 'lynx']);
    expect(labels('/lib/d.jpg')).toEqual(['person', 'man', 'dog']);
    // The person is tracked over its three frames; the dog, left on two (its third box deleted),
    // is too short for a track (its number, 2, stays free: the box restored brings it back
    // without renumbering another); the cat a person drew is a track of its own, numbered after.
    expect(all.find((i) => i.path === '/lib/v.mp4')?.boxes.map((b) => b.trackId)).toEqual([
      1,
      undefined,
      1,
      undefined,
      1,
      3,
    ]);
  });

  it('reads a correction as arrays exactly as the repository reads it', () => {
    const db = openDatabase(fx.file);
    try {
      const raw = db
        .prepare<[], RawMergeCorrection>(
          `SELECT ${MERGE_CORRECTION_COLUMNS} FROM corrections ORDER BY id`,
        )
        .raw()
        .all();
      const rows = ['ha', 'hb', 'hd', 'he', 'hv']
        .flatMap((h) => fx.store.corrections.forContent(h, 'objects'))
        .sort((x, y) => x.id - y.id);
      // Everything the merge reads; content, solution and time are the repository's alone.
      const lean = rows.map(
        ({ id, frameIndex, timeMs, anchor, label, bbox, review, deleted, track, rule }) => ({
          ...{ id, frameIndex, timeMs, anchor, label, bbox, review, deleted, track, rule },
        }),
      );
      expect(raw.map(toMergeCorrection)).toEqual(lean);
      expect(lean.filter((c) => c.anchor === null && c.deleted)).toHaveLength(1);
    } finally {
      db.close();
    }
  });
});
