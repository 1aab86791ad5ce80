import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mediaRow, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe("media.list({ needing }) and the snapshot's present rows", () => {
  it('lists only present rows still to hash or to probe, paged by path', () => {
    const folder = fx.store.folders.add('/lib');
    const [, , , gone] = fx.store.media.upsertMany([
      mediaRow(folder.id, '/lib/a.jpg'),
      mediaRow(folder.id, '/lib/b.jpg', { contentHash: 'hb' }),
      mediaRow(folder.id, '/lib/c.jpg', { contentHash: 'hc', width: null, height: null }),
      mediaRow(folder.id, '/lib/d.jpg', { width: null, height: null }),
      mediaRow(folder.id, '/lib/e.jpg', { width: null, height: null }),
    ]);
    fx.store.media.markMissing([gone!]);
    const paths = (o: Parameters<typeof fx.store.media.list>[0]) =>
      fx.store.media.list(o).map((m) => m.path);
    expect(paths({ needing: 'hash' })).toEqual(['/lib/a.jpg', '/lib/e.jpg']);
    expect(paths({ needing: 'probe' })).toEqual(['/lib/c.jpg', '/lib/e.jpg']);
    expect(paths({ needing: 'probe', limit: 1, afterPath: '/lib/c.jpg' })).toEqual(['/lib/e.jpg']);
    expect(paths({})).toHaveLength(4);
  });

  it('to probe: filtered by folder and kind as any listing is (its own query, along an index)', () => {
    const lib = fx.store.folders.add('/lib');
    const other = fx.store.folders.add('/other');
    fx.store.media.upsertMany([
      mediaRow(lib.id, '/lib/a.jpg', { width: null, height: null }),
      mediaRow(lib.id, '/lib/b.mp4', { kind: 'video', width: null, height: null }),
      mediaRow(other.id, '/other/c.jpg', { width: null, height: null }),
      mediaRow(other.id, '/other/d.jpg'),
    ]);
    const paths = (o: Parameters<typeof fx.store.media.list>[0]) =>
      fx.store.media.list({ needing: 'probe', ...o }).map((m) => m.path);
    expect(paths({ folderIds: [other.id] })).toEqual(['/other/c.jpg']);
    expect(paths({ kind: 'video' })).toEqual(['/lib/b.mp4']);
    expect(paths({ folderIds: [lib.id], limit: 1 })).toEqual(['/lib/a.jpg']);
    // Probed since: no longer listed.
    fx.store.media.upsertMany([mediaRow(other.id, '/other/c.jpg')]);
    expect(paths({})).toEqual(['/lib/a.jpg', '/lib/b.mp4']);
  });

  it('snapshotPage: present exactly for the rows a listing of the folder gives', () => {
    const folder = fx.store.folders.add('/lib');
    const other = fx.store.folders.add('/other');
    const [a, b, c] = fx.store.media.upsertMany([
      mediaRow(folder.id, '/lib/a.jpg'),
      mediaRow(folder.id, '/lib/b.jpg'),
      mediaRow(folder.id, '/lib/c.jpg'),
      mediaRow(other.id, '/other/d.jpg'),
    ]);
    fx.store.media.markMissing([b!]);
    fx.store.media.markError(c!, 'undecodable_media', 'bad');
    const listed = fx.store.media.list({ folderIds: [folder.id] }).map((m) => m.id);
    const page = fx.store.media.snapshotPage(folder.id, '', 10);
    expect(page.filter((r) => r.present).map((r) => r.entry.id)).toEqual(listed);
    expect(listed).toEqual([a]);
    // The error row is in the snapshot (a rescan compares it), the missing one is not.
    expect(page.map((r) => r.entry.id)).toEqual([a, c]);
  });

  it('anyUnhashed: true exactly while a present row has no hash (missing and error rows aside)', () => {
    const folder = fx.store.folders.add('/lib');
    expect(fx.store.media.anyUnhashed?.()).toBe(false);
    const [a, b, c] = fx.store.media.upsertMany([
      mediaRow(folder.id, '/lib/a.jpg', { contentHash: null }),
      mediaRow(folder.id, '/lib/b.jpg', { contentHash: null }),
      mediaRow(folder.id, '/lib/c.jpg', { contentHash: null }),
      mediaRow(folder.id, '/lib/d.jpg', { contentHash: 'hd' }),
    ]);
    expect(fx.store.media.anyUnhashed?.()).toBe(true);
    fx.store.media.markMissing([a!]);
    fx.store.media.markError(b!, 'undecodable_media', 'bad');
    expect(fx.store.media.anyUnhashed?.()).toBe(true);
    fx.store.media.setHashAndProbe([
      { id: c!, size: 1000, mtimeMs: 1_690_000_000_000.5, contentHash: 'hc' },
    ]);
    expect(fx.store.media.list({ needing: 'hash' })).toEqual([]);
    expect(fx.store.media.anyUnhashed?.()).toBe(false);
  });
});
