/**
 * COCO's area ranges from a real library: each image carries its picture's size, and a truth box
 * still as a COCO import gave it is ranged by that annotation's `area` (here half its box's: a
 * box of 40×40 px, medium by its size, is small by its area, as pycocotools would range it).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { evaluate } from '../../../../electron/core/evaluation/evaluate.js';
import { evaluationImages } from '../../../../electron/core/evaluation/evaluation-images.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from '../store/store-fixture.js';

let fx: StoreFixture;
// 40×40 px in a 640×480 picture.
const BOX = { x: 64 / 640, y: 48 / 480, w: 40 / 640, h: 40 / 480 };
const MOVED = { ...BOX, x: 70 / 640 };

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  const ids = fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha', width: 640, height: 480 }),
    mediaRow(f.id, '/lib/b.jpg', { contentHash: 'hb', width: 640, height: 480 }),
  ]);
  fx.store.results.saveMany([
    result('ha', [box('person', 0.9, { bbox: BOX })]),
    result('hb', [box('person', 0.8, { bbox: MOVED })]),
  ]);
  // The import's label on the model's box (what an import writes where a label meets one).
  const imported = (contentHash: string, bbox: typeof BOX, score: number) => ({
    solution: 'objects',
    timeMs: null,
    contentHash,
    frameIndex: 0,
    anchor: { label: 'person', score, bbox },
    label: 'person',
    bbox,
    review: 'accepted' as const,
    deleted: false,
    coco: JSON.stringify({ id: 7, bbox: [64, 48, 40, 40], area: 800, segmentation: [], extra: {} }),
  });
  // a.jpg: the box as imported (area 800 holds); b.jpg: moved since, so its box's own area counts.
  fx.store.corrections.putMany([imported('ha', BOX, 0.9), imported('hb', MOVED, 0.8)]);
  fx.store.reviewed.markReviewed(ids as number[], 'objects', 'person');
});
afterEach(() => fx.done());

it('gives each image its size and ranges a kept COCO box by its kept area', () => {
  const db = openDatabase(fx.file);
  try {
    const images = [...evaluationImages(db, 'objects')];
    expect(images.map((i) => [i.path, i.width, i.height])).toEqual([
      ['/lib/a.jpg', 640, 480],
      ['/lib/b.jpg', 640, 480],
    ]);
    expect(images.map((i) => i.truth.map((t) => t.area))).toEqual([[800], [undefined]]);
    const person = evaluate(images, { coco: true }).coco?.classes.find((c) => c.label === 'person');
    // One truth box is small (by its area), the other medium (its box, 1,600 px²); each found.
    expect(person?.ranges.small.ap).toBeCloseTo(1, 12);
    expect(person?.ranges.medium.ap).toBeCloseTo(1, 12);
    expect(person?.ranges.large.ap).toBe(-1);
  } finally {
    db.close();
  }
});
