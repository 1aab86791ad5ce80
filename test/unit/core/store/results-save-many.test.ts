import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { box, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('results.saveMany', () => {
  it('saves many results in input order, each as save would, kept after a restart', () => {
    const rows = fx.store.results.saveMany([
      result('h1', [box('person', 0.9), box('dog', 0.8, { review: 'rejected' })]),
      result('h2', []),
      result('h3', [box('car', 0.7, { frameIndex: 4, timeMs: 160 })], { solution: 'faces' }),
    ]);
    expect(rows.map((r) => [r.contentHash, r.solution, r.boxCount])).toEqual([
      ['h1', 'objects', 1],
      ['h2', 'objects', 0],
      ['h3', 'faces', 1],
    ]);
    expect(rows.every((r) => r.createdAt === fx.clock.t)).toBe(true);
    const store = fx.reopen();
    for (const r of rows) expect(store.results.find(r.contentHash, r.solution)).toEqual(r);
    expect(store.results.detections(rows[0]!.id).map((d) => [d.label, d.review])).toEqual([
      ['person', 'pending'],
      ['dog', 'rejected'],
    ]);
    expect(store.results.detections(rows[2]!.id)[0]).toMatchObject({ frameIndex: 4, timeMs: 160 });
  });

  it('replaces earlier results (stored or earlier in the batch), keeping their ids', () => {
    const before = fx.store.results.save(result('h1', [box('person', 0.9)]));
    const rows = fx.store.results.saveMany([
      result('h1', [box('cat', 0.6), box('dog', 0.5)], { model: 'v2' }),
      result('h2', [box('car', 0.4)]),
      result('h2', [box('bus', 0.3)]),
    ]);
    expect(rows[0]).toMatchObject({ id: before.id, boxCount: 2, model: 'v2' });
    expect(rows[2]?.id).toBe(rows[1]?.id);
    expect(fx.store.results.detections(before.id).map((d) => d.label)).toEqual(['cat', 'dog']);
    expect(fx.store.results.detections(rows[1]!.id).map((d) => d.label)).toEqual(['bus']);
  });

  it('is one transaction: a bad result anywhere in the batch leaves the store as it was', () => {
    const first = fx.store.results.save(result('h1', [box('person', 0.9)]));
    const broken = box('dog', 0.8, { review: 'maybe' as never });
    expect(() =>
      fx.store.results.saveMany([
        result('h1', [box('cat', 0.5)]),
        result('h2', [box('car', 0.4)]),
        result('h3', [broken]),
      ]),
    ).toThrow(/CHECK/);
    expect(fx.store.results.find('h1', 'objects')).toEqual(first);
    expect(fx.store.results.detections(first.id).map((d) => d.label)).toEqual(['person']);
    expect(fx.store.results.find('h2', 'objects')).toBeUndefined();
  });

  it('an empty batch does nothing', () => {
    expect(fx.store.results.saveMany([])).toEqual([]);
  });
});
