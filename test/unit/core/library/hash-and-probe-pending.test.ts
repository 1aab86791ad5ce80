import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashFile, readFileHashed } from '../../../../electron/core/library/hash-file.js';
import { Library } from '../../../../electron/core/library/library.js';
import type { MediaRecord } from '../../../../electron/core/store/store-types.js';
import { fakeLibraryStore, type FakeLibraryStore } from '../../../support/fake-library-store.js';
import { clip, jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-read-pass-'));
});
afterEach(() => remove());

const file = (rel: string) => path.join(dir, rel);

/** Rows without ids (two stores number them independently), by path. */
const rowsOf = (store: FakeLibraryStore) =>
  [...store.rows.values()]
    .map(({ id: _id, ...rest }) => rest)
    .sort((a, b) => (a.path < b.path ? -1 : 1));

async function scanned(): Promise<{ store: FakeLibraryStore; library: Library }> {
  const store = fakeLibraryStore();
  const library = new Library(store);
  await library.addFolder(dir);
  await library.scanAll();
  return { store, library };
}

describe('Library.hashAndProbePending', () => {
  it('stores exactly what hashPending then probePending store, with narrow updates', async () => {
    await mkdir(file('sub'));
    await writeFile(file('a.jpg'), await jpeg(64, 48, 1));
    await copyFile(file('a.jpg'), file('sub/copy of a.JPG'));
    await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toFile(file('rotated.jpeg'));
    // Larger than one read buffer: hashed by the streaming path, probed afterwards.
    await writeFile(
      file('large.jpg'),
      Buffer.concat([await jpeg(32, 16, 2), Buffer.alloc(1024 * 1024 + 7, 1)]),
    );
    // Deferred by the fast parser (a lossless SOF): sharp decides, and refuses it.
    await writeFile(
      file('odd.jpg'),
      Buffer.from([0xff, 0xd8, 0xff, 0xc3, 0, 11, 8, 0, 1, 0, 1, 1]),
    );
    await writeFile(file('broken.png'), 'not a png');
    await writeFile(file('gone.jpg'), await jpeg(16, 16, 3));
    await writeFile(file('edited.jpg'), await jpeg(16, 16, 4));
    await writeFile(
      file('sub/small.png'),
      await sharp({
        create: { width: 7, height: 5, channels: 3, background: '#000' },
      })
        .png()
        .toBuffer(),
    );
    await clip(dir, 'clip.mp4', 1, '160x120', 10);

    const twoPass = await scanned();
    const onePass = await scanned();
    // Between the scan and the reads: one file deleted, one rewritten with other bytes.
    await rm(file('gone.jpg'));
    await writeFile(file('edited.jpg'), await jpeg(24, 16, 5));

    expect(await twoPass.library.hashPending()).toEqual({ done: 8, failed: 1 });
    expect(await twoPass.library.probePending()).toEqual({ done: 7, failed: 2 });
    onePass.store.calls.upsertMany.length = 0;
    const progress: unknown[] = [];
    expect(await onePass.library.hashAndProbePending((c) => progress.push(c))).toEqual({
      hashed: { done: 8, failed: 1 },
      probed: { done: 7, failed: 2 },
    });
    expect(progress.length).toBeGreaterThan(0);

    expect(rowsOf(onePass.store)).toEqual(rowsOf(twoPass.store));
    const row = (rel: string) => onePass.store.rows.get(file(rel)) as MediaRecord;
    expect(row('a.jpg')).toMatchObject({ width: 64, height: 48, orientation: 1 });
    expect(row('sub/copy of a.JPG').contentHash).toBe(row('a.jpg').contentHash);
    expect(row('rotated.jpeg')).toMatchObject({ width: 40, height: 20, orientation: 6 });
    expect(row('large.jpg')).toMatchObject({ width: 32, height: 16 });
    expect(row('large.jpg').contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row('clip.mp4')).toMatchObject({ width: 160, height: 120, fps: 10, durationMs: 1000 });
    expect(row('sub/small.png')).toMatchObject({ width: 7, height: 5 });
    expect(row('odd.jpg')).toMatchObject({ status: 'error', errorCode: 'undecodable_media' });
    expect(row('odd.jpg').contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row('broken.png')).toMatchObject({ status: 'error', errorCode: 'undecodable_media' });
    expect(row('gone.jpg')).toMatchObject({ status: 'missing', contentHash: null });
    // Changed since the scan: its hash is not recorded against the old size and mtime.
    expect(row('edited.jpg').contentHash).toBeNull();
    // Only the changed file's probe (handed to probePending) rewrote a whole row.
    expect(onePass.store.calls.upsertMany).toEqual([1]);
    expect(onePass.store.calls.setHashAndProbe.reduce((a, b) => a + b, 0)).toBe(8);

    // Nothing left: a second pass reads nothing.
    expect(await onePass.library.hashAndProbePending()).toEqual({
      hashed: { done: 0, failed: 0 },
      probed: { done: 0, failed: 0 },
    });
  });
});

describe('readFileHashed (the asynchronous read of the pass)', () => {
  it('hashes as hashFile does and hands back the bytes of a file that fits its buffer', async () => {
    await writeFile(file('small.jpg'), await jpeg(16, 16, 1));
    await writeFile(file('big.bin'), Buffer.alloc(3000, 7));
    const buffer = Buffer.alloc(1024);
    const small = await readFileHashed(file('small.jpg'), Buffer.alloc(64 * 1024));
    expect(small).toMatchObject(await hashFile(file('small.jpg')));
    expect(small.bytes).toEqual(await readFile(file('small.jpg')));
    const big = await readFileHashed(file('big.bin'), buffer);
    expect(big).toEqual(await hashFile(file('big.bin')));
    expect(big.bytes).toBeUndefined();
  });
});

describe('Library.scan reading new files as it finds them (readNew)', () => {
  it('stores what scan then hashAndProbePending store, writing each fast-parsed row once', async () => {
    await writeFile(file('a.jpg'), await jpeg(64, 48, 1));
    await copyFile(file('a.jpg'), file('copy.jpg'));
    await writeFile(
      file('odd.jpg'),
      Buffer.from([0xff, 0xd8, 0xff, 0xc3, 0, 11, 8, 0, 1, 0, 1, 1]),
    );
    await writeFile(file('broken.png'), 'not a png');
    await writeFile(file('bad.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    await clip(dir, 'clip.mp4', 1, '160x120', 10);

    const twoPass = await scanned();
    await twoPass.library.hashAndProbePending();
    const store = fakeLibraryStore();
    const library = new Library(store);
    const root = await library.addFolder(dir);
    await library.scan([root], undefined, undefined, undefined, true);
    // The JPEGs were hashed and probed by the scan itself: one write each, nothing left to update.
    expect(store.rows.get(file('a.jpg'))).toMatchObject({ width: 64, height: 48 });
    expect(store.rows.get(file('a.jpg'))?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const counts = await library.hashAndProbePending();
    expect(counts.hashed).toEqual({ done: 0, failed: 0 });
    expect(store.calls.setHashAndProbe.reduce((a, b) => a + b, 0)).toBe(0);
    expect(rowsOf(store)).toEqual(rowsOf(twoPass.store));
  });
});
