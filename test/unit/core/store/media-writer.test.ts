import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMediaWriter,
  type MediaWriter,
} from '../../../../electron/core/store/media-writer.js';
import { mediaRow, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
let writer: MediaWriter | undefined;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(async () => {
  await writer?.close();
  await fx.done();
});

describe('createMediaWriter (a worker thread; needs `npm run build:node`)', () => {
  it('commits rows from its own thread, every column as writeMany stores it, visible at once', async () => {
    const f = fx.store.folders.add('/photos');
    writer = createMediaWriter(fx.file, 10_000);
    expect(writer).toBeDefined();
    const clip = mediaRow(f.id, '/photos/clip.mp4', {
      kind: 'video',
      contentHash: 'h-clip',
      durationMs: 4000,
      fps: 25,
      orientation: 6,
      status: 'error',
      errorCode: 'undecodable_media',
      errorMessage: 'Broken.',
      fileId: '2049:7',
    });
    const many = Array.from({ length: 300 }, (_, i) => mediaRow(f.id, `/photos/${i}.jpg`));
    await Promise.all([writer!.write([clip]), writer!.write(many)]);
    fx.store.media.writeMany?.([{ ...clip, path: '/photos/here.mp4' }]);
    const { id: _a, ...there } = fx.store.media.byPath('/photos/clip.mp4')!;
    const { id: _b, ...here } = fx.store.media.byPath('/photos/here.mp4')!;
    expect(there).toEqual({ ...here, path: '/photos/clip.mp4' });
    expect(fx.store.media.count()).toBe(302);
    // Again under the same path: updated in place, never a second row.
    await writer!.write([mediaRow(f.id, '/photos/clip.mp4', { size: 5 })]);
    expect(fx.store.media.byPath('/photos/clip.mp4')).toMatchObject({ size: 5, status: 'present' });
    expect(fx.store.media.count()).toBe(302);
  });

  it("rejects a batch SQLite refuses with SQLite's code, writing none of it", async () => {
    const f = fx.store.folders.add('/photos');
    writer = createMediaWriter(fx.file, 10_000);
    const bad = [
      mediaRow(f.id, '/photos/ok.jpg'),
      mediaRow(f.id, '/photos/bad.jpg', { orientation: 9 }),
    ];
    await expect(writer!.write(bad)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_CHECK' });
    expect(fx.store.media.count()).toBe(0);
    // The batch after it is written: one bad batch does not stop the writer.
    await writer!.write([mediaRow(f.id, '/photos/ok.jpg')]);
    expect(fx.store.media.count()).toBe(1);
    await writer!.close();
    await expect(writer!.write([mediaRow(f.id, '/photos/late.jpg')])).rejects.toThrow('closed');
    writer = undefined;
  });

  it('is not made for an in-memory database (another connection would see another database)', () => {
    expect(createMediaWriter(':memory:', 10_000)).toBeUndefined();
  });
});
