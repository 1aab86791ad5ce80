/**
 * ReviewService over a real library: an edit answers the box as the item shows it after the
 * write, the library view's mirror and box count follow in the same call, and a run of edits
 * keeps answering the truth when the item is analysed again meanwhile (same clock, same ids).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../../electron/core/review/review-service.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from '../store/store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

function image(hash: string) {
  const folder = fx.store.folders.add('/pics');
  const [id] = fx.store.media.upsertMany([
    mediaRow(folder.id, '/pics/a.jpg', { contentHash: hash }),
  ]);
  return id as number;
}

describe('ReviewService edits', () => {
  it('answers the edited box and keeps the mirror and count true, edit after edit', () => {
    const id = image('h1');
    const saved = fx.store.results.save(
      result('h1', [
        box('person', 0.9),
        box('car', 0.5, { bbox: { x: 0.6, y: 0.6, w: 0.2, h: 0.2 } }),
      ]),
    );
    const review = new ReviewService(fx.store);
    const [person, car] = review.item(id, 'objects').boxes;
    const ref = (b: typeof person) => ({
      detectionId: b!.detectionId,
      correctionId: b!.correctionId,
    });
    const moved = review.edit(id, 'objects', {
      kind: 'move',
      box: ref(person),
      bbox: { x: 0.11, y: 0.2, w: 0.3, h: 0.4 },
    });
    expect(moved.box).toMatchObject({ origin: 'edited', bbox: { x: 0.11 } });
    const again = review.edit(id, 'objects', {
      kind: 'move',
      box: ref(moved.box!),
      bbox: { x: 0.12, y: 0.2, w: 0.3, h: 0.4 },
    });
    expect(again.box).toMatchObject({ correctionId: moved.box!.correctionId, bbox: { x: 0.12 } });
    expect(review.edit(id, 'objects', { kind: 'reject', box: ref(car) }).box).toMatchObject({
      review: 'rejected',
    });
    const rows = fx.store.results.detections(saved.id);
    expect(rows.map((d) => [d.review, d.origin])).toEqual([
      ['pending', 'edited'],
      ['rejected', 'model'],
    ]);
    expect(fx.store.results.find('h1', 'objects')?.boxCount).toBe(1);
    expect(review.item(id, 'objects').boxes.map((b) => b.bbox.x)).toEqual([0.12, 0.6]);
  });

  it('reads the new analysis after a re-analysis on the same clock', () => {
    const id = image('h2');
    fx.store.results.save(result('h2', [box('person', 0.9)]));
    const review = new ReviewService(fx.store);
    const [first] = review.item(id, 'objects').boxes;
    review.edit(id, 'objects', {
      kind: 'accept',
      box: { detectionId: first!.detectionId, correctionId: null },
    });
    // Analysed again at the same pinned time: new boxes, the person's kept where they pair.
    fx.store.results.save(
      result('h2', [
        box('person', 0.9),
        box('dog', 0.7, { bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 } }),
      ]),
    );
    const after = review.item(id, 'objects').boxes;
    expect(after.map((b) => [b.label, b.review])).toEqual([
      ['person', 'accepted'],
      ['dog', 'pending'],
    ]);
    const dog = after[1]!;
    expect(
      review.edit(id, 'objects', {
        kind: 'reject',
        box: { detectionId: dog.detectionId, correctionId: null },
      }).box,
    ).toMatchObject({ label: 'dog', review: 'rejected' });
  });
});
