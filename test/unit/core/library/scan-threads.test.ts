import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
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
