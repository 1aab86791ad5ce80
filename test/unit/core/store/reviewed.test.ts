/** Reviewed marks in a real SQLite library: per file and solution, kept through re-analysis. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
let ids: number[];

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  ids = fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/b.jpg', { contentHash: 'hb' }),
    mediaRow(f.id, '/lib/unhashed.jpg'),
  ]);
  fx.store.results.save(result('ha', [box('person', 0.9)]));
});
afterEach(() => fx.done());

describe('reviewed marks', () => {
  it('marks files for one solution, skips unhashed and unknown files, and survives a reopen', () => {
    const [a, b, unhashed] = ids as [number, number, number];
    expect(fx.store.reviewed.markReviewed([a, unhashed, 9999], 'objects', 'person')).toEqual([a]);
    fx.clock.t += 5;
    expect(fx.store.reviewed.markReviewed([b], 'objects', 'import')).toEqual([b]);
    fx.reopen();
    expect(fx.store.reviewed.of(a, 'objects')).toEqual({
      mediaId: a,
      solution: 'objects',
      contentHash: 'ha',
      reviewedAt: 1_700_000_000_000,
      reviewedBy: 'person',
    });
    expect(fx.store.reviewed.of(b, 'objects')?.reviewedBy).toBe('import');
    expect(fx.store.reviewed.of(a, 'face')).toBeUndefined();
    expect(fx.store.reviewed.count('objects')).toBe(2);
    expect(fx.store.reviewed.count('face')).toBe(0);
  });

  it('marking again refreshes who and when; unmarking takes it off', () => {
    const a = ids[0]!;
    fx.store.reviewed.markReviewed([a], 'objects', 'import');
    fx.clock.t += 1000;
    fx.store.reviewed.markReviewed([a], 'objects', 'person');
    expect(fx.store.reviewed.of(a, 'objects')).toMatchObject({
      reviewedBy: 'person',
      reviewedAt: 1_700_000_001_000,
    });
    expect(fx.store.reviewed.unmarkReviewed([a, ids[1]!], 'objects')).toBe(1);
    expect(fx.store.reviewed.of(a, 'objects')).toBeUndefined();
  });

  it('re-analysis keeps the mark; new bytes in the file end it', () => {
    const a = ids[0]!;
    fx.store.reviewed.markReviewed([a], 'objects', 'person');
    fx.store.results.save(result('ha', [box('dog', 0.7)]));
    expect(fx.store.reviewed.of(a, 'objects')?.reviewedBy).toBe('person');
    const media = fx.store.media.byId(a)!;
    fx.store.media.upsertMany([{ ...media, size: 2000, contentHash: 'ha2' }]);
    expect(fx.store.reviewed.of(a, 'objects')).toBeUndefined();
    expect(fx.store.reviewed.count('objects')).toBe(0);
  });

  it('is part of an outer transaction: all or nothing with the caller writes', () => {
    const a = ids[0]!;
    expect(() =>
      fx.store.transaction(() => {
        fx.store.reviewed.markReviewed([a], 'objects', 'import');
        throw new Error('import failed half way');
      }),
    ).toThrow('half way');
    expect(fx.store.reviewed.of(a, 'objects')).toBeUndefined();
  });
});
