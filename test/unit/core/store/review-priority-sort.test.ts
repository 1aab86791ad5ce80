/**
 * The library's "Review priority" sort on a real SQLite library: the view's scan scores every
 * labelled file, the store caches the scores with what they were computed from, and the sort puts
 * files still to review first, most expected corrections first, reviewed and unlabelled ones last.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryView } from '../../../../electron/core/store/library-view.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
let view: LibraryView;
beforeEach(async () => {
  fx = await storeFixture();
  view = new LibraryView(fx.file);
});
afterEach(async () => {
  view.close();
  await fx.done();
});

const SAME = { x: 0.4, y: 0.4, w: 0.3, h: 0.3 };
const spread = (i: number) => ({ bbox: { x: i * 0.1, y: 0.1, w: 0.05, h: 0.05 } });
const sure = (n: number) => Array.from({ length: n }, (_, i) => box('apple', 0.99, spread(i)));

function library() {
  const f = fx.store.folders.add('/lib');
  const files = {
    sure: sure(4), // as many boxes as the folder's median, all far above the threshold
    conflict: [...sure(3), box('apple', 0.9, { bbox: SAME }), box('orange', 0.85, { bbox: SAME })],
    near: [...sure(3), box('apple', 0.62, spread(5))],
    empty: [], // the folder's files have 4 boxes: this one probably misses them
    reviewed: [box('apple', 0.6, { bbox: SAME }), box('orange', 0.6, { bbox: SAME })],
  };
  const names = Object.keys(files);
  fx.store.media.upsertMany([
    ...names.map((n) => mediaRow(f.id, `/lib/${n}.jpg`, { contentHash: `h-${n}` })),
    mediaRow(f.id, '/lib/unlabelled.jpg', { contentHash: 'h-none' }),
  ]);
  fx.store.results.saveMany(Object.entries(files).map(([n, boxes]) => result(`h-${n}`, boxes)));
  const id = (n: string) => fx.store.media.byPath(`/lib/${n}.jpg`)!.id;
  fx.store.reviewed.markReviewed([id('reviewed')], 'objects', 'person');
  return id;
}

const byPriority = (descending = false) =>
  view
    .page({ filter: { solution: 'objects' }, sort: 'priority', descending, offset: 0, limit: 50 })
    .map((i) => i.name);

describe('review priority in the library', () => {
  it('scores each labelled file and sorts the files to review by it', () => {
    const id = library();
    const scores = new Map(view.priorityScores('objects', [['apple', 0.6]]));
    expect(scores.get(id('empty'))).toBe(4);
    expect(scores.get(id('conflict'))).toBe(1);
    expect(scores.get(id('near'))).toBe(0.5);
    expect(scores.get(id('sure'))).toBe(0);
    expect(scores.has(fx.store.media.byPath('/lib/unlabelled.jpg')!.id)).toBe(false);

    const fingerprint = fx.store.priority.fingerprint('objects');
    fx.store.priority.replace('objects', fingerprint, [...scores]);
    expect(fx.store.priority.storedFingerprint('objects')).toBe(fingerprint);
    expect(byPriority()).toEqual([
      'empty.jpg',
      'conflict.jpg',
      'near.jpg',
      'sure.jpg',
      'unlabelled.jpg',
      'reviewed.jpg',
    ]);
    expect(byPriority(true)).toEqual([...byPriority()].reverse());
  });

  it('the fingerprint moves with new results and with the reviewed evidence doubling', () => {
    const id = library();
    const before = fx.store.priority.fingerprint('objects');
    expect(fx.store.priority.fingerprint('objects')).toBe(before);
    // 1 reviewed file → 2: the evidence doubled.
    fx.store.reviewed.markReviewed([id('sure')], 'objects', 'person');
    const twoReviewed = fx.store.priority.fingerprint('objects');
    expect(twoReviewed).not.toBe(before);
    // 2 → 3 is not a doubling: Enter through a batch does not recompute every time.
    fx.store.reviewed.markReviewed([id('near')], 'objects', 'person');
    expect(fx.store.priority.fingerprint('objects')).toBe(twoReviewed);
    fx.store.results.save(result('h-none', sure(2)));
    expect(fx.store.priority.fingerprint('objects')).not.toBe(twoReviewed);
  });
});
