import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mediaRow, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('media.setHashAndProbe', () => {
  it('stores hashes and probe results of the version read, and touches nothing else', () => {
    const folder = fx.store.folders.add('/lib');
    const base = { contentHash: null, width: null, height: null, durationMs: null, fps: null };
    const [a, b, c, d] = fx.store.media.upsertMany([
      mediaRow(folder.id, '/lib/a.jpg', base),
      mediaRow(folder.id, '/lib/b.jpg', base),
      mediaRow(folder.id, '/lib/c.mp4', { ...base, kind: 'video' }),
      mediaRow(folder.id, '/lib/d.jpg', base),
    ]);
    fx.store.media.markError(d!, 'undecodable_media', 'bad');
    const before = fx.store.media.byId(a!)!;
    const { size, mtimeMs } = before;

    const updated = fx.store.media.setHashAndProbe([
      {
        id: a!,
        size,
        mtimeMs,
        contentHash: 'ha',
        probe: { width: 40, height: 20, orientation: 6, durationMs: null, fps: null },
      },
      // Hash only (the probe failed): the probe columns keep their values.
      { id: b!, size, mtimeMs, contentHash: 'hb' },
      {
        id: c!,
        size,
        mtimeMs,
        contentHash: 'hc',
        probe: { width: 320, height: 240, orientation: 1, durationMs: 2000, fps: 10 },
      },
      // Hashed as errored: the hash is stored, status and error stay.
      { id: d!, size, mtimeMs, contentHash: 'hd' },
    ]);

    expect(updated).toBe(4);
    expect(fx.store.media.byId(a!)).toEqual({
      ...before,
      contentHash: 'ha',
      width: 40,
      height: 20,
      orientation: 6,
    });
    expect(fx.store.media.byId(b!)).toMatchObject({
      contentHash: 'hb',
      width: null,
      height: null,
      status: 'present',
    });
    expect(fx.store.media.byId(c!)).toMatchObject({
      contentHash: 'hc',
      width: 320,
      height: 240,
      durationMs: 2000,
      fps: 10,
    });
    expect(fx.store.media.byId(d!)).toMatchObject({
      contentHash: 'hd',
      status: 'error',
      errorCode: 'undecodable_media',
      errorMessage: 'bad',
    });
    expect(fx.store.media.list({ needing: 'hash' })).toEqual([]);
    expect(fx.store.media.list({ needing: 'probe' }).map((m) => m.path)).toEqual(['/lib/b.jpg']);
  });

  it('leaves a row alone when the file read is not the version it records', () => {
    const folder = fx.store.folders.add('/lib');
    const [a] = fx.store.media.upsertMany([
      mediaRow(folder.id, '/lib/a.jpg', { contentHash: null, width: null, height: null }),
    ]);
    const before = fx.store.media.byId(a!)!;
    const probe = { width: 1, height: 1, orientation: 1, durationMs: null, fps: null };
    expect(
      fx.store.media.setHashAndProbe([
        { id: a!, size: before.size + 1, mtimeMs: before.mtimeMs, contentHash: 'x', probe },
        { id: a!, size: before.size, mtimeMs: before.mtimeMs + 1, contentHash: 'y' },
        { id: a! + 100, size: before.size, mtimeMs: before.mtimeMs, contentHash: 'z', probe },
      ]),
    ).toBe(0);
    expect(fx.store.media.byId(a!)).toEqual(before);
    expect(fx.store.media.setHashAndProbe([])).toBe(0);
  });
});
