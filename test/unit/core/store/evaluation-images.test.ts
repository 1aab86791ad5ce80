/**
 * What the evaluation reads from a real library: per analysed frame the model's own boxes, and as
 * truth what the file shows (a person's edits merged, rejected and deleted boxes left out), with
 * keyframes between analysed frames measuring nothing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { evaluationImages } from '../../../../electron/core/evaluation/evaluation-images.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
const A = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
const B = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  const [photo, clip] = fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/v.mp4', { contentHash: 'hv', kind: 'video', fps: 10 }),
    mediaRow(f.id, '/lib/b.jpg', { contentHash: 'hb' }),
  ]);
  fx.store.results.saveMany([
    result('ha', [box('person', 0.9, { bbox: A }), box('dog', 0.5, { bbox: B })]),
    result('hv', [
      box('person', 0.8, { bbox: A, frameIndex: 0, timeMs: 0 }),
      box('person', 0.7, { bbox: B, frameIndex: 1, timeMs: 500 }),
    ]),
    result('hb', [box('dog', 0.4, { bbox: A })]),
  ]);
  const base = { solution: 'objects', timeMs: null };
  fx.store.corrections.putMany([
    // The photo: the dog relabelled a cat, the person deleted.
    {
      ...base,
      contentHash: 'ha',
      frameIndex: 0,
      anchor: { label: 'dog', score: 0.5, bbox: B },
      label: 'cat',
      bbox: null,
      review: 'accepted',
      deleted: false,
    },
    {
      ...base,
      contentHash: 'ha',
      frameIndex: 0,
      anchor: { label: 'person', score: 0.9, bbox: A },
      label: null,
      bbox: null,
      review: 'accepted',
      deleted: true,
    },
    // The clip: a keyframe drawn between its two analysed frames.
    {
      ...base,
      contentHash: 'hv',
      frameIndex: 3,
      keyframe: true,
      timeMs: 300,
      anchor: null,
      label: 'person',
      bbox: A,
      review: 'accepted',
      deleted: false,
    },
  ]);
  // b.jpg is not reviewed: it is not read.
  fx.store.reviewed.markReviewed([photo!, clip!], 'objects', 'person');
});
afterEach(() => fx.done());

it('reads the reviewed files frame by frame: the model as it answered, the truth as shown', () => {
  const db = openDatabase(fx.file);
  try {
    const images = [...evaluationImages(db, 'objects')].map((i) => ({
      path: i.path,
      frame: i.frameIndex,
      model: i.model.map((m) => `${m.label}@${m.score}`),
      truth: i.truth.map((t) => `${t.label}${t.bbox.x}`),
    }));
    expect(images).toEqual([
      { path: '/lib/a.jpg', frame: 0, model: ['person@0.9', 'dog@0.5'], truth: ['cat0.6'] },
      { path: '/lib/v.mp4', frame: 0, model: ['person@0.8'], truth: ['person0.1'] },
      { path: '/lib/v.mp4', frame: 1, model: ['person@0.7'], truth: ['person0.6'] },
    ]);
  } finally {
    db.close();
  }
});
