/**
 * The library's "Conflicts" filter asks in SQL what the review computes in TypeScript: on random
 * files the two agree file by file, and a box a person rejects ends its conflict.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryView } from '../../../../electron/core/library-view/library-view.js';
import { findConflicts } from '../../../../electron/shared/geometry/conflicts.js';
import {
  box,
  correction,
  mediaRow,
  result,
  storeFixture,
  type StoreFixture,
} from './store-fixture.js';
import { lcgRandom } from '../../../support/seeded-random.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

function conflictedPaths(): string[] {
  const view = new LibraryView(fx.file);
  try {
    return view
      .page({
        filter: { solution: 'objects', conflicts: true },
        sort: 'path',
        descending: false,
        offset: 0,
        limit: 1000,
      })
      .map((i) => i.path);
  } finally {
    view.close();
  }
}

describe('the Conflicts filter', () => {
  it('agrees with findConflicts on 200 random files', () => {
    const next = lcgRandom(7);
    const f = fx.store.folders.add('/lib');
    const names = Array.from({ length: 200 }, (_, i) => `/lib/${String(i).padStart(3, '0')}.jpg`);
    fx.store.media.upsertMany(names.map((p, i) => mediaRow(f.id, p, { contentHash: `h${i}` })));
    const labels = ['apple', 'orange', 'lemon'];
    fx.store.results.saveMany(
      names.map((_, i) => {
        const base = { x: next() * 0.5, y: next() * 0.5, w: 0.2 + next() * 0.2, h: 0.2 };
        const boxes = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
          box(labels[Math.floor(next() * 3)] as string, next(), {
            frameIndex: next() < 0.2 ? 1 : 0,
            bbox: { ...base, x: base.x + next() * 0.06, w: base.w - next() * 0.04 },
          }),
        );
        return result(`h${i}`, boxes);
      }),
    );
    const expected = names.filter((_, i) => {
      const r = fx.store.results.find(`h${i}`, 'objects');
      const boxes = fx.store.results.detections(r?.id ?? 0).map((d) => ({
        ...d,
        key: `d${d.id}`,
        detectionId: d.id,
        deleted: false,
      }));
      return findConflicts(boxes).length > 0;
    });
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length).toBeLessThan(190);
    expect(conflictedPaths()).toEqual(expected);
  });

  it('a rejected box ends its conflict', () => {
    const f = fx.store.folders.add('/lib');
    fx.store.media.upsertMany([mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' })]);
    fx.store.results.save(result('ha', [box('apple', 0.6), box('orange', 0.8)]));
    expect(conflictedPaths()).toEqual(['/lib/a.jpg']);
    const apple = { label: 'apple', score: 0.6, bbox: box('apple', 0.6).bbox };
    fx.store.corrections.put(correction('ha', apple, { review: 'rejected' }));
    expect(conflictedPaths()).toEqual([]);
  });
});
