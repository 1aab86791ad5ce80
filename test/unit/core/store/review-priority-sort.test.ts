/**
 * The library's "Review priority" sort on a real SQLite library: the view's scan scores every
 * labelled file, the store caches the scores with what they were computed from, and the sort puts
 * files still to review first, most expected corrections first, reviewed and unlabelled ones last.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../../electron/core/review/review-service.js';
import { LibraryView } from '../../../../electron/core/library-view/library-view.js';
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
    const scan = view.priorityScores('objects', [['apple', 0.6]]);
    const scores = new Map(scan.scores);
    expect(scores.get(id('empty'))).toBe(4);
    expect(scores.get(id('conflict'))).toBe(1);
    expect(scores.get(id('near'))).toBe(0.5);
    expect(scores.get(id('sure'))).toBe(0);
    expect(scores.has(fx.store.media.byPath('/lib/unlabelled.jpg')!.id)).toBe(false);

    const fingerprint = fx.store.priority.fingerprint('objects');
    expect(fx.store.priority.anyScored('objects')).toBe(false);
    fx.store.priority.replace('objects', fingerprint, { thresholds: [['apple', 0.6]], ...scan }, [
      ...scores,
    ]);
    expect(fx.store.priority.storedFingerprint('objects')).toBe(fingerprint);
    expect(fx.store.priority.anyScored('objects')).toBe(true);
    expect(fx.store.priority.anyScored('other')).toBe(false);
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

  it("a person's edit scores the file again at once, as a new scan would", () => {
    const id = library();
    const thresholds: [string, number][] = [['apple', 0.6]];
    const stored = () => {
      const scan = view.priorityScores('objects', thresholds);
      const fingerprint = fx.store.priority.fingerprint('objects');
      fx.store.priority.replace('objects', fingerprint, { thresholds, ...scan }, scan.scores);
      return fingerprint;
    };
    const fingerprint = stored();
    const review = new ReviewService(fx.store);
    const boxOf = (name: string, label: string, score: number) => {
      const b = review
        .item(id(name), 'objects')
        .boxes.find((x) => x.label === label && x.score === score)!;
      return { detectionId: b.detectionId, correctionId: b.correctionId };
    };
    // The conflict ends when the orange is called an apple: it goes after the near box.
    const orange = boxOf('conflict', 'orange', 0.85);
    review.edit(id('conflict'), 'objects', { kind: 'relabel', box: orange, label: 'apple' });
    expect(byPriority().slice(0, 4)).toEqual(['empty.jpg', 'near.jpg', 'conflict.jpg', 'sure.jpg']);
    // The person accepts the near box: decided, no longer a coin flip.
    review.edit(id('near'), 'objects', { kind: 'accept', box: boxOf('near', 'apple', 0.62) });
    expect(byPriority().slice(0, 4)).toEqual(['empty.jpg', 'conflict.jpg', 'near.jpg', 'sure.jpg']);
    // Neither changes what the fingerprint reads: the stored scores moved by themselves.
    expect(fx.store.priority.fingerprint('objects')).toBe(fingerprint);
    // Drawing the folder's four boxes on the empty file: nothing is missing any more.
    for (const x of [0.1, 0.3, 0.5, 0.7]) {
      const bbox = { x, y: 0.5, w: 0.1, h: 0.1 };
      review.edit(id('empty'), 'objects', {
        ...{ kind: 'add', frameIndex: 0, timeMs: null, label: 'apple', bbox },
      });
    }
    expect(byPriority().slice(0, 4)).toEqual(['conflict.jpg', 'empty.jpg', 'near.jpg', 'sure.jpg']);
    // A whole new scan finds what the edits left: nothing expected on any of them.
    const scan = new Map(view.priorityScores('objects', thresholds).scores);
    expect(['conflict', 'empty', 'near', 'sure'].map((n) => scan.get(id(n)))).toEqual([0, 0, 0, 0]);
  });

  it('a box a rule accepted is still a coin flip for the scan; one a person accepted is not', () => {
    const id = library();
    const near = { label: 'apple', score: 0.62, bbox: spread(5).bbox };
    fx.store.ruleBatches.apply('objects', 0.95, 1, [
      {
        contentHash: 'h-near',
        boxes: [{ correctionId: null, frameIndex: 0, timeMs: null, model: near, rule: 'r' }],
      },
    ]);
    const score = () => new Map(view.priorityScores('objects', [['apple', 0.6]]).scores);
    expect(score().get(id('near'))).toBe(0.5);
    const review = new ReviewService(fx.store);
    const box = review.item(id('near'), 'objects').boxes.find((b) => b.score === 0.62)!;
    const ref = { detectionId: box.detectionId, correctionId: box.correctionId };
    review.edit(id('near'), 'objects', { kind: 'accept', box: ref });
    expect(score().get(id('near'))).toBe(0);
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
