import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('media', () => {
  it('upserts by path: a rescan updates the row instead of duplicating it, ids in input order', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    const ids = store.media.upsertMany([
      mediaRow(f.id, '/photos/b.jpg'),
      mediaRow(f.id, '/photos/a.jpg'),
    ]);
    expect(ids).toHaveLength(2);
    expect(store.media.byPath('/photos/b.jpg')?.id).toBe(ids[0]);

    const again = store.media.upsertMany([
      mediaRow(f.id, '/photos/a.jpg', { size: 2048, contentHash: 'h-a', orientation: 6 }),
    ]);
    expect(again).toEqual([ids[1]]);
    expect(store.media.count()).toBe(2);
    expect(store.media.byId(ids[1]!)).toMatchObject({
      path: '/photos/a.jpg',
      size: 2048,
      contentHash: 'h-a',
      orientation: 6,
      mtimeMs: 1_690_000_000_000.5,
      status: 'present',
      errorCode: null,
    });
  });

  it('writeMany stores every column as upsertMany does, and updates by path', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    const full = mediaRow(f.id, '/photos/clip.mp4', {
      kind: 'video',
      contentHash: 'h-clip',
      width: 640,
      height: 360,
      orientation: 3,
      durationMs: 4000,
      fps: 25,
      status: 'error',
      errorCode: 'undecodable_media',
      errorMessage: 'Broken.',
      fileId: '2049:77',
    });
    store.media.writeMany?.([full, mediaRow(f.id, '/photos/a.jpg')]);
    const [id] = store.media.upsertMany([{ ...full, path: '/photos/copy.mp4' }]);
    const { id: _written, ...written } = store.media.byPath('/photos/clip.mp4')!;
    const { id: _copied, ...copied } = store.media.byId(id!)!;
    expect(written).toEqual({ ...copied, path: '/photos/clip.mp4' });
    store.media.writeMany?.([mediaRow(f.id, '/photos/clip.mp4', { size: 9 })]);
    expect(store.media.count()).toBe(3);
    expect(store.media.byPath('/photos/clip.mp4')).toMatchObject({
      size: 9,
      status: 'present',
      errorCode: null,
      fileId: null,
    });
  });

  it('writes a batch all or nothing', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    expect(() =>
      store.media.upsertMany([
        mediaRow(f.id, '/photos/ok.jpg'),
        mediaRow(f.id, '/photos/bad.jpg', { orientation: 42 }),
      ]),
    ).toThrow(/CHECK/);
    expect(() =>
      store.media.upsertMany([mediaRow(f.id, '/photos/a.wav', { kind: 'audio' as never })]),
    ).toThrow(/CHECK/);
    expect(store.media.count()).toBe(0);
  });

  it('a rescan snapshot leaves out missing files, so a file that comes back is read again', () => {
    const { store } = fx;
    const f = store.folders.add('/photos');
    const [a, b, c] = store.media.upsertMany([
      mediaRow(f.id, '/photos/a.jpg', { contentHash: 'h-a' }),
      mediaRow(f.id, '/photos/b.jpg'),
      mediaRow(f.id, '/photos/c.jpg'),
    ]);
    store.media.markMissing([b!]);
    store.media.markError(c!, 'undecodable', 'The file is not a readable image.');
    const snap = store.media.snapshot(f.id);
    expect([...snap.keys()].sort()).toEqual(['/photos/a.jpg', '/photos/c.jpg']);
    expect(snap.get('/photos/a.jpg')).toEqual({
      id: a,
      size: 1000,
      mtimeMs: 1_690_000_000_000.5,
      contentHash: 'h-a',
      fileId: null,
    });
    expect(store.media.byId(c!)).toMatchObject({ status: 'error', errorCode: 'undecodable' });
    expect(store.media.list({}).map((m) => m.path)).toEqual(['/photos/a.jpg']);

    store.media.upsertMany([mediaRow(f.id, '/photos/b.jpg')]);
    expect(store.media.byId(b!)?.status).toBe('present');
  });

  it('lists present media by folder and kind, in path order, with keyset paging', () => {
    const { store } = fx;
    const one = store.folders.add('/one');
    const two = store.folders.add('/two');
    store.media.upsertMany([
      mediaRow(two.id, '/two/z.mp4', { kind: 'video', durationMs: 1500, fps: 25 }),
      mediaRow(one.id, '/one/b.jpg'),
      mediaRow(one.id, '/one/a.jpg'),
      mediaRow(two.id, '/two/c.jpg'),
    ]);
    expect(store.media.list({ folderIds: [one.id] }).map((m) => m.path)).toEqual([
      '/one/a.jpg',
      '/one/b.jpg',
    ]);
    expect(store.media.list({ kind: 'video' })).toMatchObject([{ durationMs: 1500, fps: 25 }]);
    expect(store.media.list({ limit: 2, afterPath: '/one/a.jpg' }).map((m) => m.path)).toEqual([
      '/one/b.jpg',
      '/two/c.jpg',
    ]);
    expect(store.media.list({ folderIds: [] })).toHaveLength(4);
  });

  it('pages through the whole library by path with box counts; duplicates share one result', () => {
    const { store } = fx;
    const f = store.folders.add('/lib');
    const rows = Array.from({ length: 25 }, (_, i) =>
      mediaRow(f.id, `/lib/${String(i).padStart(3, '0')}.jpg`, { contentHash: `h${i % 10}` }),
    );
    store.media.upsertMany(rows);
    store.results.save(result('h3', [box('person', 0.9), box('dog', 0.8)]));
    store.results.save(result('h3', [box('cat', 0.7)], { solution: 'faces' }));

    const seen: { path: string; boxCount: number | null }[] = [];
    let after: string | undefined;
    for (;;) {
      const page = store.media.page({ solution: 'objects', limit: 7, afterPath: after });
      if (page.length === 0) break;
      seen.push(...page.map((p) => ({ path: p.media.path, boxCount: p.boxCount })));
      after = page.at(-1)!.media.path;
    }
    expect(seen.map((s) => s.path)).toEqual(rows.map((r) => r.path));
    // Three files carry content h3 (3, 13, 23): all show the one stored result.
    expect(seen.filter((s) => s.boxCount !== null)).toEqual([
      { path: '/lib/003.jpg', boxCount: 2 },
      { path: '/lib/013.jpg', boxCount: 2 },
      { path: '/lib/023.jpg', boxCount: 2 },
    ]);
    expect(store.media.page({ solution: 'faces', limit: 5, afterPath: '/lib/010.jpg' })).toEqual(
      expect.arrayContaining([expect.objectContaining({ boxCount: 1 })]),
    );
  });

  it('removing a folder removes its media but keeps paid-for results for when it comes back', () => {
    const { store } = fx;
    const f = store.folders.add('/gone');
    expect(store.folders.add('/gone').id).toBe(f.id);
    const [id] = store.media.upsertMany([mediaRow(f.id, '/gone/a.jpg', { contentHash: 'h' })]);
    const run = store.runs.create({
      serviceUrl: 'u',
      solution: 'objects',
      estimateFrames: 1,
      budgetFrames: null,
      at: 1,
    });
    const sub = store.submissions.create({
      runId: run,
      mediaId: id!,
      contentHash: 'h',
      solution: 'objects',
      framesReserved: 1,
    });
    store.ledger.record({ serviceUrl: 'u', submissionId: sub, frames: 1, at: 10 });
    store.results.save(result('h', [box('person', 0.9)]));
    store.folders.markScanned(f.id, 1234);
    expect(store.folders.list()).toEqual([
      { id: f.id, path: '/gone', addedAt: fx.clock.t, lastScanAt: 1234 },
    ]);

    store.folders.remove(f.id);
    expect(store.folders.list()).toEqual([]);
    expect(store.media.count()).toBe(0);
    expect(store.submissions.byId(sub)).toBeUndefined();
    expect(store.results.find('h', 'objects')?.boxCount).toBe(1);
    expect(store.ledger.spentSince('u', 0)).toBe(1);
  });
});
