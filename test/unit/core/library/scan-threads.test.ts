import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Library } from '../../../../electron/core/library/library.js';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

// Real threads, counted as they start (the read pool's readers and the scan's writer).
const started = vi.hoisted(() => ({ threads: 0 }));
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerThreads>();
  class CountedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.threads++;
    }
  }
  return { ...real, Worker: CountedWorker };
});

let dir: string;
let remove: () => Promise<void>;
let store: LibraryStore;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-scan-threads-'));
  store = openLibraryStore(path.join(dir, 'library.sqlite'));
  started.threads = 0;
});
afterEach(async () => {
  store.close();
  await remove();
});

describe('a scan that reads what it finds (needs `npm run build:node`)', () => {
  it('reads and writes new files on worker threads, and starts none when nothing is new', async () => {
    const photos = path.join(dir, 'photos');
    const library = new Library(store);
    await mkdir(photos);
    await writeFile(path.join(photos, 'a.jpg'), await jpeg(32, 24, 1));
    const root = await library.addFolder(photos);
    expect(await library.scan([root], undefined, undefined, undefined, true)).toMatchObject({
      new: 1,
    });
    // Two readers and one writer, and the row they stored is complete.
    expect(started.threads).toBe(3);
    expect(store.media.byPath(path.join(photos, 'a.jpg'))).toMatchObject({ width: 32 });
    started.threads = 0;
    expect(await library.scan([root], undefined, undefined, undefined, true)).toMatchObject({
      unchanged: 1,
    });
    expect(await library.hashAndProbePending()).toMatchObject({ hashed: { done: 0 } });
    expect(started.threads).toBe(0);
  });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A photo of more than 64 KiB (noise does not compress). */
const largePhoto = () =>
  sharp({
    create: {
      width: 400,
      height: 400,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();

describe('a read pass that feeds a run (needs `npm run build:node`)', () => {
  it('reads small photos on its own thread, and starts the threads only for a large one', async () => {
    const photos = path.join(dir, 'photos');
    await mkdir(photos);
    const small: Buffer[] = [];
    for (let i = 0; i < 40; i++) {
      small.push(await jpeg(24 + (i % 3), 16, i));
      await writeFile(path.join(photos, `small-${String(i).padStart(2, '0')}.jpg`), small[i]!);
    }
    const library = new Library(store);
    const root = await library.addFolder(photos);
    await library.scan([root]);
    const stored: number[] = [];
    const counts = await library.hashAndProbePending(undefined, {}, undefined, (ids) =>
      stored.push(...ids),
    );
    expect(counts).toMatchObject({ hashed: { done: 40, failed: 0 }, probed: { done: 40 } });
    expect(stored).toHaveLength(40);
    expect(started.threads).toBe(0);
    small.forEach((bytes, i) =>
      expect(
        store.media.byPath(path.join(photos, `small-${String(i).padStart(2, '0')}.jpg`)),
      ).toMatchObject({ contentHash: sha256(bytes), width: 24 + (i % 3), height: 16 }),
    );

    const large = await largePhoto();
    expect(large.length).toBeGreaterThan(64 * 1024);
    await writeFile(path.join(photos, 'large.jpg'), large);
    await library.scan([root]);
    await library.hashAndProbePending(undefined, {}, undefined, () => undefined);
    expect(started.threads).toBe(2);
    expect(store.media.byPath(path.join(photos, 'large.jpg'))).toMatchObject({
      contentHash: sha256(large),
      width: 400,
    });
  });
});
