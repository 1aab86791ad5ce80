import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FolderWatcher,
  type WatchEvent,
  watchFolders,
} from '../../../../electron/core/library/watch-folders.js';
import { tempDir } from '../../../support/temp-dir.js';

const STABLE_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let remove: () => Promise<void>;
let watcher: FolderWatcher | undefined;
let events: WatchEvent[];
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-watch-'));
  events = [];
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await remove();
});

async function start(roots = [dir]) {
  watcher = watchFolders(roots, (e) => events.push(e), { stableMs: STABLE_MS, rootPollMs: 200 });
  await watcher.ready;
}

/** Waits until `count` events have arrived, then a little longer to catch extra ones. */
async function settled(count: number, timeoutMs = 5000) {
  const t0 = Date.now();
  while (events.length < count && Date.now() - t0 < timeoutMs) await sleep(50);
  await sleep(STABLE_MS * 3);
  return events.map((e) => [e.type, path.relative(dir, e.path)]);
}

describe('watchFolders', () => {
  it('reports added, changed and removed media with the final stat; ignores other files', async () => {
    await writeFile(path.join(dir, 'old.jpg'), 'old');
    await start();
    await writeFile(path.join(dir, 'new.png'), 'new!');
    await writeFile(path.join(dir, 'notes.txt'), 'ignored');
    expect(await settled(1)).toEqual([['added', 'new.png']]);
    expect(events[0]).toMatchObject({ kind: 'image', size: 4, root: dir });

    events = [];
    await appendFile(path.join(dir, 'old.jpg'), ' and more');
    await rm(path.join(dir, 'new.png'));
    expect((await settled(2)).sort()).toEqual([
      ['changed', 'old.jpg'],
      ['removed', 'new.png'],
    ]);
    expect(events.find((e) => e.type === 'changed')).toMatchObject({ size: 12 });
  });

  it('never reports a half-written file, only the finished one, once', async () => {
    await start();
    const file = path.join(dir, 'slow.mp4');
    const t0 = Date.now();
    await writeFile(file, Buffer.alloc(1000));
    // Chunks with pauses shorter than the stability window, for well over the window.
    for (let i = 0; i < 8; i++) {
      await sleep(STABLE_MS / 2);
      expect(events).toEqual([]);
      await appendFile(file, Buffer.alloc(1000));
    }
    const writtenFor = Date.now() - t0;
    expect(writtenFor).toBeGreaterThan(STABLE_MS * 3);
    expect(await settled(1)).toEqual([['added', 'slow.mp4']]);
    expect(events[0]).toMatchObject({ size: 9000, kind: 'video' });
  });

  it('handles new folders, renames (removed + added) and folder removal', async () => {
    await mkdir(path.join(dir, 'a/b'), { recursive: true });
    await writeFile(path.join(dir, 'a/b/one.jpg'), '1');
    await start();

    // A folder created with files already in it (as `mv` or `cp -r` do).
    await mkdir(path.join(dir, 'tmp-new/deep'), { recursive: true });
    await writeFile(path.join(dir, 'tmp-new/deep/two.jpg'), '2');
    await rename(path.join(dir, 'tmp-new'), path.join(dir, 'new'));
    expect(await settled(1)).toEqual([['added', 'new/deep/two.jpg']]);

    events = [];
    await rename(path.join(dir, 'a/b/one.jpg'), path.join(dir, 'a/b/uno.jpg'));
    expect((await settled(2)).sort()).toEqual([
      ['added', 'a/b/uno.jpg'],
      ['removed', 'a/b/one.jpg'],
    ]);

    events = [];
    await rename(path.join(dir, 'a'), path.join(dir, 'moved-a'));
    expect((await settled(2)).sort()).toEqual([
      ['added', 'moved-a/b/uno.jpg'],
      ['removed', 'a/b/uno.jpg'],
    ]);

    events = [];
    await rm(path.join(dir, 'new'), { recursive: true });
    expect(await settled(1)).toEqual([['removed', 'new/deep/two.jpg']]);

    // Still watching the moved folder after all that.
    events = [];
    await writeFile(path.join(dir, 'moved-a/b/three.jpg'), '3');
    expect(await settled(1)).toEqual([['added', 'moved-a/b/three.jpg']]);
  });

  it('reports a removed root as removed files, and its files again when it comes back', async () => {
    const root = path.join(dir, 'root');
    await mkdir(root);
    await writeFile(path.join(root, 'x.jpg'), 'x');
    await start([root]);
    await rename(root, path.join(dir, 'elsewhere'));
    expect(await settled(1)).toEqual([['removed', 'root/x.jpg']]);
    events = [];
    await rename(path.join(dir, 'elsewhere'), root);
    expect(await settled(1)).toEqual([['added', 'root/x.jpg']]);
  });

  it('stops cleanly: nothing is reported after close()', async () => {
    await start();
    await writeFile(path.join(dir, 'late.jpg'), 'x');
    await watcher!.close();
    await sleep(STABLE_MS * 3);
    await writeFile(path.join(dir, 'later.jpg'), 'x');
    await sleep(STABLE_MS * 2);
    expect(events).toEqual([]);
  });
});
