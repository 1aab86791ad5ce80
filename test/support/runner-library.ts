/**
 * The library a runner test labels: a fresh store for each test (in its own temp folder, clock
 * pinned) with one folder `/lib`, and the media rows a scan would have left in it.
 */
import { afterEach, beforeEach } from 'vitest';
import type { LibraryStore, MediaRecord } from '../../electron/core/store/store-types.js';
import { mediaRow, storeFixture, type StoreFixture } from '../unit/core/store/store-fixture.js';

export interface RunnerLibrary {
  readonly store: LibraryStore;
  readonly folderId: number;
  /**
   * `count` images `/lib/<prefix>NNN.jpg` numbered from `from` (default 0, prefix `p`), each with
   * a content of its own (`<prefix>-N`) unless `hash` names it.
   */
  images(
    count: number,
    o?: { from?: number; prefix?: string; hash?: (i: number) => string },
  ): MediaRecord[];
  /** One 2-second clip, `/lib/c.mp4`. */
  clip(): MediaRecord;
}

/** Registers the store's set-up and removal around each test of the calling file. */
export function runnerLibrary(): RunnerLibrary {
  let fx: StoreFixture | undefined;
  let folder = 0;
  beforeEach(async () => {
    fx = await storeFixture();
    folder = fx.store.folders.add('/lib').id;
  });
  afterEach(() => fx?.done());
  const store = () => {
    if (!fx) throw new Error('runnerLibrary is used outside a test');
    return fx.store;
  };
  const records = (ids: readonly number[]) => ids.map((id) => store().media.byId(id)!);
  return {
    get store() {
      return store();
    },
    get folderId() {
      return folder;
    },
    images(count, { from = 0, prefix = 'p', hash = (i: number) => `${prefix}-${i}` } = {}) {
      const numbers = Array.from({ length: count }, (_, k) => from + k);
      const rows = numbers.map((i) =>
        mediaRow(folder, `/lib/${prefix}${String(i).padStart(3, '0')}.jpg`, {
          contentHash: hash(i),
        }),
      );
      return records(store().media.upsertMany(rows));
    },
    clip() {
      const row = mediaRow(folder, '/lib/c.mp4', {
        kind: 'video',
        durationMs: 2_000,
        contentHash: 'clip',
      });
      return records(store().media.upsertMany([row]))[0]!;
    },
  };
}
