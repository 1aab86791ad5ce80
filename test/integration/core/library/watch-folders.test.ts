import {
  appendFile,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../electron/core/library/library.js';
import {
  type FolderWatcher,
  type WatchEvent,
  type WatchOptions,
  watchFolders,
} from '../../../../electron/core/library/watch-folders.js';
import { fakeLibraryStore } from '../../../support/fake-library-store.js';
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

async function start(roots = [dir], options: WatchOptions = {}) {
  watcher = watchFolders(roots, (e) => events.push(e), {
    stableMs: STABLE_MS,
    rootPollMs: 200,
    ...options,
  });
  await watcher.ready;
}

/** inotify watches this process holds (Linux only; elsewhere undefined). */
async function inotifyWatches(): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined;
  let count = 0;
  for (const fd of await readdir('/proc/self/fdinfo')) {
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return count;
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
    const before = await inotifyWatches();
    await start();
    // One watch per folder (dir, a, a/b), none per file.
    if (before !== undefined) expect(await inotifyWatches()).toBe(before + 3);

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

  it('a root that goes away is paused, not emptied, and resumes when it comes back', async () => {
    const root = path.join(dir, 'root');
    await mkdir(root);
    await writeFile(path.join(root, 'x.jpg'), 'x');
    const states: [string, boolean][] = [];
    await start([root], { onRootState: (r, present) => states.push([r, present]) });
    await rename(root, path.join(dir, 'elsewhere'));
    expect(await settled(0)).toEqual([]);
    expect(states).toEqual([[root, false]]);
    await rename(path.join(dir, 'elsewhere'), root);
    expect(await settled(1)).toEqual([['added', 'root/x.jpg']]);
    expect(states).toEqual([
      [root, false],
      [root, true],
    ]);
  });

  it.runIf(process.getuid?.() === 0)(
    'a root on a drive that is unmounted is paused and resumes once mounted again',
    async () => {
      const mountPoint = path.join(dir, 'drive');
      await mkdir(mountPoint);
      const mount = (...args: string[]) => execFileSync('mount', args);
      mount('-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint);
      try {
        const root = path.join(mountPoint, 'photos');
        await mkdir(root);
        await writeFile(path.join(root, 'x.jpg'), 'x');
        const states: boolean[] = [];
        await start([root], { onRootState: (_, present) => states.push(present) });
        execFileSync('umount', [mountPoint]);
        expect(await settled(0)).toEqual([]);
        expect(states).toEqual([false]);
        mount('-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint);
        await mkdir(root);
        await writeFile(path.join(root, 'y.jpg'), 'y');
        expect(await settled(1)).toEqual([['added', 'drive/photos/y.jpg']]);
        expect(states).toEqual([false, true]);
      } finally {
        await watcher?.close();
        execFileSync('umount', [mountPoint], { stdio: 'ignore' });
      }
    },
  );

  it('does not follow symlinked folders (the next scan sees them)', async () => {
    const root = path.join(dir, 'root');
    const elsewhere = path.join(dir, 'elsewhere');
    await mkdir(root);
    await mkdir(elsewhere);
    await symlink(elsewhere, path.join(root, 'link'), 'dir');
    const before = await inotifyWatches();
    await start([root]);
    if (before !== undefined) expect(await inotifyWatches()).toBe(before + 1);
    await writeFile(path.join(elsewhere, 'through-link.jpg'), 'x');
    await writeFile(path.join(root, 'own.jpg'), 'y');
    expect(await settled(1)).toEqual([['added', 'root/own.jpg']]);
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

  it('reports a file copied in slowly (chunks over 1.5 s, kept open) once, when complete', async () => {
    await mkdir(path.join(dir, 'incoming'));
    await start();
    const chunk = 64 * 1024;
    // Held open and written in chunks with pauses shorter than the window, as a slow copy does.
    const handle = await open(path.join(dir, 'incoming/copy.mov'), 'w');
    try {
      for (let i = 0; i < 15; i++) {
        await handle.write(Buffer.alloc(chunk, i));
        await sleep(100);
        expect(events).toEqual([]);
      }
    } finally {
      await handle.close();
    }
    expect(await settled(1)).toEqual([['added', 'incoming/copy.mov']]);
    expect(events[0]).toMatchObject({ size: 15 * chunk, kind: 'video' });
  });

  it('reports an atomic save (temp renamed over, or unlink then write) as one change', async () => {
    await writeFile(path.join(dir, 'photo.jpg'), 'v1');
    await writeFile(path.join(dir, 'clip.mp4'), 'v1');
    await start();
    await writeFile(path.join(dir, '.photo.jpg.tmp'), 'version 2');
    await rename(path.join(dir, '.photo.jpg.tmp'), path.join(dir, 'photo.jpg'));
    expect(await settled(1)).toEqual([['changed', 'photo.jpg']]);
    expect(events[0]).toMatchObject({ size: 9 });

    events = [];
    await rm(path.join(dir, 'clip.mp4'));
    await sleep(STABLE_MS / 3); // the gap an editor leaves between unlink and write
    await writeFile(path.join(dir, 'clip.mp4'), 'version 2!');
    expect(await settled(1)).toEqual([['changed', 'clip.mp4']]);
    expect(events[0]).toMatchObject({ size: 10 });
  });

  it('polls the roots asked for (network drives): new, replaced and removed files', async () => {
    const nas = path.join(dir, 'nas');
    const local = path.join(dir, 'local');
    await mkdir(path.join(nas, 'sub'), { recursive: true });
    await mkdir(local);
    await writeFile(path.join(nas, 'sub/old.jpg'), 'old');
    const asked: string[] = [];
    const pollingFor = (root: string) => asked.push(root) > 0 && root === nas;
    const before = await inotifyWatches();
    await start([nas, local], { pollingFor, pollIntervalMs: 1200 });
    expect(asked).toEqual([nas, local]);
    // Only `local` holds an inotify watch: the two polled folders are stat-ed instead.
    if (before !== undefined) expect(await inotifyWatches()).toBe(before + 1);

    await writeFile(path.join(nas, 'sub/new.jpg'), 'new');
    await writeFile(path.join(local, 'fast.png'), 'fast');
    // fs.watch reports the local file after one 300 ms window; the polled folder is stat-ed every
    // 1.2 s and its write-finish window is as long, so its file comes ≥ 2.4 s after the write.
    for (let i = 0; i < 50 && events.length === 0; i++) await sleep(100);
    expect(events.map((e) => path.relative(dir, e.path))).toEqual(['local/fast.png']);
    expect(await settled(2, 10_000)).toEqual([
      ['added', 'local/fast.png'],
      ['added', 'nas/sub/new.jpg'],
    ]);

    events = [];
    await writeFile(path.join(nas, 'sub/.old.jpg.tmp'), 'replaced');
    await rename(path.join(nas, 'sub/.old.jpg.tmp'), path.join(nas, 'sub/old.jpg'));
    await rm(path.join(nas, 'sub/new.jpg'));
    expect((await settled(2, 10_000)).sort()).toEqual([
      ['changed', 'nas/sub/old.jpg'],
      ['removed', 'nas/sub/new.jpg'],
    ]);
  });

  it('Library.watch asks pollingFor about each folder, again when the folder list changes', async () => {
    const library = new Library(fakeLibraryStore(), { stableMs: STABLE_MS });
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    await mkdir(a);
    await mkdir(b);
    await library.addFolder(a);
    const asked: string[] = [];
    const pollingFor = (folder: string) => asked.push(folder) > 0 && folder === b;
    const before = await inotifyWatches();
    watcher = await library.watch((e) => events.push(e), { pollingFor });
    await library.addFolder(b);
    expect(asked).toEqual([a, a, b]);
    if (before !== undefined) expect(await inotifyWatches()).toBe(before + 1); // `a` only
    await writeFile(path.join(b, 'x.jpg'), 'x');
    expect(await settled(1, 10_000)).toEqual([['added', 'b/x.jpg']]);
  });
});
