/**
 * The model's boxes read ahead of an import (on this thread or one of their own) are the boxes a
 * per-file read gives, each taken once, and only while nobody else writes: a write on the same
 * connection or another connection's commit drops them all, the import's own writes (between
 * check and remark) do not. A result asked for before its page came keeps none from it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLibrary, realContentHash } from '../../../bench/bench-library.js';
import { ModelBoxesAhead } from '../../../electron/application/model-boxes-ahead.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { tempDir } from '../../support/temp-dir.js';

/** 10 boxes each: pages of 2,000 rows cut results short, and read them again. */
const IMAGES = 450;

let t: { dir: string; remove: () => Promise<void> };
let library: string;
beforeAll(async () => {
  t = await tempDir('labeldesk-boxes-ahead-');
  library = join(t.dir, 'library.sqlite');
  buildLibrary(library, IMAGES);
});
afterAll(() => t.remove());

async function filled(store: LibraryStore): Promise<ModelBoxesAhead> {
  const ahead = new ModelBoxesAhead(store);
  await ahead.fill(() => false);
  return ahead;
}

const resultOf = (store: LibraryStore, i: number) => {
  const r = store.results.find(realContentHash(i), 'objects');
  if (!r) throw new Error(`no result for image ${i}`);
  return r.id;
};

/** Each result's boxes as a per-file read gives them, then none. */
function expectEachOnce(store: LibraryStore, ahead: ModelBoxesAhead): void {
  ahead.check();
  for (let i = 0; i < IMAGES; i++) {
    const id = resultOf(store, i);
    expect(ahead.take(id)).toEqual(store.results.detections(id));
    expect(ahead.take(id)).toBeUndefined();
  }
}

it('gives each result the boxes a per-file read gives, once', async () => {
  const store = openLibraryStore(library);
  try {
    const ahead = await filled(store);
    expectEachOnce(store, ahead);
  } finally {
    store.close();
  }
});

it("keeps them across the import's own writes, drops them at anyone else's", async () => {
  const store = openLibraryStore(library);
  const other = openLibraryStore(library);
  try {
    const media = store.media.list({ limit: 3 });
    const ids = media.map((m) => m.id);
    let ahead = await filled(store);
    store.transaction(() => {
      ahead.check();
      store.reviewed.markReviewed([ids[0] as number], 'objects', 'import');
      ahead.remark();
    });
    ahead.check();
    expect(ahead.take(resultOf(store, 1))).toHaveLength(10);

    // A write on the same connection that is not the import's.
    store.reviewed.markReviewed([ids[1] as number], 'objects', 'person');
    ahead.check();
    expect(ahead.take(resultOf(store, 2))).toBeUndefined();

    // Another connection's commit.
    ahead = await filled(store);
    other.reviewed.markReviewed([ids[2] as number], 'objects', 'person');
    store.transaction(() => ahead.check());
    expect(ahead.take(resultOf(store, 3))).toBeUndefined();
  } finally {
    other.close();
    store.close();
  }
});

it('reads them on a thread of its own: the same boxes, once', async () => {
  const store = openLibraryStore(library);
  const ahead = new ModelBoxesAhead(store);
  try {
    expect(ahead.readOnThread()).toBe(true);
    await ahead.settled();
    expectEachOnce(store, ahead);
  } finally {
    ahead.close();
    store.close();
  }
});

it("keeps none of a result asked for before its page came, and none after anyone else's write", async () => {
  const store = openLibraryStore(library);
  const other = openLibraryStore(library);
  const ahead = new ModelBoxesAhead(store);
  try {
    // Asked for (then read per file, and maybe written) before the thread's pages came.
    expect(ahead.take(resultOf(store, 0))).toBeUndefined();
    expect(ahead.readOnThread()).toBe(true);
    await ahead.settled();
    ahead.check();
    expect(ahead.take(resultOf(store, 0))).toBeUndefined();
    expect(ahead.take(resultOf(store, 1))).toHaveLength(10);

    const [media] = store.media.list({ limit: 1 });
    other.reviewed.markReviewed([media?.id ?? 0], 'objects', 'person');
    store.transaction(() => ahead.check());
    expect(ahead.take(resultOf(store, 2))).toBeUndefined();
  } finally {
    ahead.close();
    other.close();
    store.close();
  }
});

it('reads no further once told to stop, keeping what it sent', async () => {
  const store = openLibraryStore(library);
  const ahead = new ModelBoxesAhead(store);
  try {
    expect(ahead.readOnThread()).toBe(true);
    // Told before it starts: it reads its first page (2,000 rows, 200 results), then stops.
    ahead.stopReading();
    await ahead.settled();
    ahead.check();
    expect(ahead.take(resultOf(store, 0))).toHaveLength(10);
    expect(ahead.take(resultOf(store, IMAGES - 1))).toBeUndefined();
  } finally {
    ahead.close();
    store.close();
  }
});
