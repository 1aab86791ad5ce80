/**
 * Migration 24: a box's `rejected` flag (what the index of shown boxes reads) follows its
 * `review` through every write of the library view's mirror: a result saved with rejected boxes,
 * a rejection, a rejected box accepted again, a content's boxes all accepted at once (an
 * import's write).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
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
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

const A = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
const B = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };

/** Each box's review and flag, and the boxes whose flag disagrees with their review. */
function flags(): { boxes: string[]; wrong: number } {
  const db = openDatabase(fx.file);
  try {
    const boxes = db
      .prepare<[], string>(
        "SELECT label || ':' || review || ':' || rejected FROM detections ORDER BY id",
      )
      .pluck()
      .all();
    const wrong = db
      .prepare<[], number>(
        "SELECT count(*) FROM detections WHERE rejected != (review = 'rejected')",
      )
      .pluck()
      .get() as number;
    return { boxes, wrong };
  } finally {
    db.close();
  }
}

it('follows the review through saves, rejections, restorations and whole-content writes', () => {
  const folder = fx.store.folders.add('/photos');
  fx.store.media.upsertMany([mediaRow(folder.id, '/photos/a.jpg', { contentHash: 'ha' })]);
  fx.store.results.saveMany([
    result('ha', [
      box('person', 0.9, { bbox: A }),
      box('dog', 0.5, { bbox: B, review: 'rejected', origin: 'model' }),
    ]),
  ]);
  expect(flags()).toEqual({ boxes: ['person:pending:0', 'dog:rejected:1'], wrong: 0 });

  const person = { label: 'person', score: 0.9, bbox: A };
  const dog = { label: 'dog', score: 0.5, bbox: B };
  const rejectPerson = fx.store.corrections.put(correction('ha', person, { review: 'rejected' }));
  expect(flags()).toEqual({ boxes: ['person:rejected:1', 'dog:rejected:1'], wrong: 0 });

  // The dog, rejected by the model's answer, accepted by a person: shown again.
  fx.store.corrections.put(correction('ha', dog, { review: 'accepted' }));
  expect(flags()).toEqual({ boxes: ['person:rejected:1', 'dog:accepted:0'], wrong: 0 });

  // Every box of the content takes one state (the import's write, by result).
  fx.store.corrections.put({
    ...correction('ha', person, { review: 'accepted' }),
    id: rejectPerson.id,
  });
  expect(flags()).toEqual({ boxes: ['person:accepted:0', 'dog:accepted:0'], wrong: 0 });
});
