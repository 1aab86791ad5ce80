/**
 * Issue 23 §5: a rescan hears a quit while it reads what the library knows. The folder's rows are
 * read a page at a time with a turn of the event loop between pages (in one call, 100k rows held
 * the loop, and a SIGTERM with it, for 1–2.5 s); an abort between pages ends the rescan there,
 * having written and marked nothing. Counted in pages read, not in time.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fresh, reconcile } from '../../../../electron/core/library/reconcile.js';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import { tempDir } from '../../../support/temp-dir.js';

const ROWS = 10_000;

let t: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
let folderId: number;

beforeEach(async () => {
  t = await tempDir('labeldesk-reconcile-abort-');
  store = openLibraryStore(join(t.dir, 'library.sqlite'));
  const root = join(t.dir, 'photos');
  folderId = store.folders.add(root).id;
  store.media.upsertMany(
    Array.from({ length: ROWS }, (_, i) =>
      fresh(folderId, { path: join(root, `p${i}.jpg`), size: 10, mtimeMs: 1, kind: 'image' }),
    ),
  );
});
afterEach(async () => {
  store.close();
  await t.remove();
});

/** A walk that finds nothing (as a rescan would mark every row missing if it got that far). */
async function* nothingFound(): AsyncGenerator<never[]> {}

describe('a rescan of a large library, quit while it reads the library', () => {
  it('stops after the page being read, writing and marking nothing', async () => {
    const pages = vi.spyOn(store.media, 'snapshotPage');
    const quit = new AbortController();
    const rescan = reconcile(store, folderId, nothingFound(), { signal: quit.signal });
    // The first page is read before reconcile first yields: the quit comes right after it.
    quit.abort(new Error('closing'));
    await expect(rescan).rejects.toThrow('closing');
    expect(pages).toHaveBeenCalledTimes(1);
    expect(store.media.list({ folderIds: [folderId] })).toHaveLength(ROWS);
  });

  it('reads every row when nothing stops it, the same as one snapshot', async () => {
    const counts = await reconcile(store, folderId, nothingFound());
    expect(counts.missing).toBe(ROWS);
    expect(store.media.list({ folderIds: [folderId] })).toHaveLength(0);
  });
});
