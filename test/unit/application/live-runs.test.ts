/**
 * `plan` beside a run: the runs going now are the lock holder's, those started since it took the
 * lock. A run a crash left "running" before that stays out, so its files stay uncertain.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveRunIdsOf } from '../../../electron/application/live-runs.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { acquireLibraryLock } from '../../../electron/core/store/library-lock.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { tempDir } from '../../support/temp-dir.js';

let tmp: { dir: string; remove: () => Promise<void> };
let store: LibraryStore;
beforeEach(async () => {
  tmp = await tempDir('labeldesk-live-runs-');
  store = openLibraryStore(join(tmp.dir, 'library.db'));
});
afterEach(async () => {
  store.close();
  await tmp.remove();
});

const newRun = (at: number) =>
  store.runs.create({
    serviceUrl: 'http://s',
    solution: 'objects',
    estimateFrames: 1,
    budgetFrames: null,
    at,
  });

describe('the runs going now', () => {
  it("are the lock holder's unfinished runs, not a crashed one nor a finished one", async () => {
    const crashed = newRun(Date.now() - 60_000);
    expect(liveRunIdsOf(tmp.dir, store)).toEqual([]);

    const lock = await acquireLibraryLock(tmp.dir, { command: 'labeldesk label /photos' });
    const first = newRun(lock.holder.since);
    const ended = newRun(lock.holder.since + 1);
    store.runs.finish(ended, lock.holder.since + 2, 'done');
    const second = newRun(lock.holder.since + 3);
    expect(liveRunIdsOf(tmp.dir, store)).toEqual([first, second]);
    expect(liveRunIdsOf(tmp.dir, store)).not.toContain(crashed);

    lock.release();
    expect(liveRunIdsOf(tmp.dir, store)).toEqual([]);
  });
});
