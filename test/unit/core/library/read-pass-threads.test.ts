import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Library } from '../../../../electron/core/library/library.js';
import type * as ReadPoolModule from '../../../../electron/core/library/read-pool.js';
import { fakeLibraryStore } from '../../../support/fake-library-store.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

// The real pool, counted: how many times a pass starts its worker threads.
const started = vi.hoisted(() => ({ pools: 0 }));
vi.mock('../../../../electron/core/library/read-pool.js', async (importOriginal) => {
  const real = await importOriginal<typeof ReadPoolModule>();
  return {
    ...real,
    createReadPool: (size: number) => {
      started.pools++;
      return real.createReadPool(size);
    },
  };
});

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-read-threads-'));
  started.pools = 0;
});
afterEach(() => remove());

describe('the read pass starts its threads only for work', () => {
  it('after a scan that read what it found, finds nothing to read and starts no pool', async () => {
    await writeFile(path.join(dir, 'a.jpg'), await jpeg(32, 24, 1));
    const store = fakeLibraryStore();
    const library = new Library(store);
    const root = await library.addFolder(dir);
    await library.scan([root], undefined, undefined, undefined, true);
    expect(started.pools).toBe(1);
    expect(await library.hashAndProbePending()).toMatchObject({ hashed: { done: 0 } });
    expect(started.pools).toBe(1);
    // A new file: the pass has work, and starts its pool for it.
    await writeFile(path.join(dir, 'b.jpg'), await jpeg(32, 24, 2));
    await library.scan([root]);
    expect(await library.hashAndProbePending()).toMatchObject({ hashed: { done: 1 } });
    expect(started.pools).toBe(2);
  });
});
