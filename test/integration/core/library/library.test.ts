import { chmod, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../electron/core/library/library.js';
import type { WatchEvent } from '../../../../electron/core/library/watch-folders.js';
import { fakeLibraryStore, type FakeLibraryStore } from '../../../support/fake-library-store.js';
import { clip, jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
let store: FakeLibraryStore;
let library: Library;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-library-'));
  store = fakeLibraryStore();
  library = new Library(store, { stableMs: 300 });
});
afterEach(() => remove());

const row = (rel: string) => store.rows.get(path.join(dir, rel));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Library', () => {
  it('refuses /, a relative path and a non-folder, each with its own sentence', async () => {
    await writeFile(path.join(dir, 'a.jpg'), 'x');
    const refusal = (p: string) =>
      library.addFolder(p).then(
        () => undefined,
        (err: { code?: string; message: string }) => [err.code, err.message],
      );
    expect(await refusal('/')).toEqual([
      'whole_disk',
      expect.stringMatching(/^\/ is the whole disk/),
    ]);
    expect(await refusal('photos')).toEqual(['relative_path', expect.stringContaining('"photos"')]);
    expect(await refusal(path.join(dir, 'a.jpg'))).toEqual([
      'not_a_folder',
      expect.stringContaining('is not a folder'),
    ]);
    expect(await refusal('/dev/null')).toEqual(['not_a_folder', expect.any(String)]);
    expect(store.folders.list()).toEqual([]);
  });

  it('applies the overlap rule to every folder, / included (a library made before the rule)', async () => {
    store.folders.add('/');
    await expect(library.addFolder(dir)).rejects.toMatchObject({
      code: 'overlapping_folder',
      message: `${dir} is inside the library folder /, which already holds its files.`,
    });
    store.folders.remove(store.folders.list()[0]!.id);
    await mkdir(path.join(dir, 'inner'));
    await library.addFolder(path.join(dir, 'inner'));
    await expect(library.addFolder(dir)).rejects.toThrow(/holds the library folder .*inner/);
  });

  it('adds folders, scans, hashes, probes; dedupes by content; rescans after changes', async () => {
    await mkdir(path.join(dir, 'photos/sub'), { recursive: true });
    await writeFile(path.join(dir, 'photos/a.jpg'), await jpeg(64, 48, 1));
    await copyFile(path.join(dir, 'photos/a.jpg'), path.join(dir, 'photos/sub/copy of a.JPG'));
    await writeFile(path.join(dir, 'photos/broken.png'), 'not a png');
    await clip(path.join(dir, 'photos'), 'clip.mp4', 2, '320x240', 10);
    const folder = await library.addFolder(path.join(dir, 'photos'));
    expect(await library.addFolder(path.join(dir, 'photos/'))).toEqual(folder);
    await expect(library.addFolder(path.join(dir, 'photos/sub'))).rejects.toThrow(
      /inside the library folder/,
    );

    const progress: number[] = [];
    expect(await library.scanAll((p) => progress.push(p.counts.new))).toEqual({
      new: 4,
      changed: 0,
      unchanged: 0,
      missing: 0,
      reappeared: 0,
      issues: 0,
    });
    expect(progress.at(-1)).toBe(4);
    expect(store.folders.list()[0]!.lastScanAt).not.toBeNull();

    expect(await library.hashPending()).toEqual({ done: 4, failed: 0 });
    expect(row('photos/a.jpg')!.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row('photos/sub/copy of a.JPG')!.contentHash).toBe(row('photos/a.jpg')!.contentHash);

    expect(await library.probePending()).toEqual({ done: 3, failed: 1 });
    expect(row('photos/a.jpg')).toMatchObject({ width: 64, height: 48, orientation: 1 });
    expect(row('photos/clip.mp4')).toMatchObject({
      width: 320,
      height: 240,
      fps: 10,
      durationMs: 2000,
    });
    expect(row('photos/broken.png')).toMatchObject({
      status: 'error',
      errorCode: 'undecodable_media',
    });
    // Nothing left to do: failures are not retried until the file changes.
    expect(await library.probePending()).toEqual({ done: 0, failed: 0 });

    // Closed: one edited, one deleted, one added.
    await sharp(await jpeg(32, 32, 2)).toFile(path.join(dir, 'photos/a.jpg'));
    await rm(path.join(dir, 'photos/clip.mp4'));
    await writeFile(
      path.join(dir, 'photos/sub/new.webp'),
      await sharp(await jpeg(8, 8))
        .webp()
        .toBuffer(),
    );
    expect(await library.scanAll()).toMatchObject({ new: 1, changed: 1, unchanged: 2, missing: 1 });
    expect(row('photos/a.jpg')).toMatchObject({ contentHash: null, width: null });
    expect(row('photos/clip.mp4')!.status).toBe('missing');
    expect(await library.hashPending()).toEqual({ done: 2, failed: 0 });
    expect(await library.probePending()).toEqual({ done: 2, failed: 0 });
    expect(row('photos/a.jpg')).toMatchObject({ width: 32, height: 32 });

    await library.removeFolder(folder.id);
    expect(store.rows.size).toBe(0);
  });

  it('reports scan issues and never marks an unplugged folder missing', async () => {
    const issues: string[] = [];
    library = new Library(store, { onIssue: (i) => issues.push(i.code) });
    await mkdir(path.join(dir, 'drive'));
    await writeFile(path.join(dir, 'drive/a.jpg'), 'a');
    await library.addFolder(path.join(dir, 'drive'));
    await library.scanAll();
    await rm(path.join(dir, 'drive'), { recursive: true });
    expect(await library.scanAll()).toMatchObject({ missing: 0, issues: 1 });
    expect(issues).toEqual(['folder_missing']);
    expect(row('drive/a.jpg')!.status).toBe('present');
  });

  it('keeps the store current while watching and reports only real changes', async () => {
    await mkdir(path.join(dir, 'w'));
    await writeFile(path.join(dir, 'w/a.jpg'), 'a');
    await library.addFolder(path.join(dir, 'w'));
    await library.scanAll();
    const events: WatchEvent[] = [];
    const watcher = await library.watch((e) => events.push(e));
    try {
      await writeFile(path.join(dir, 'w/b.jpg'), 'bb');
      await rm(path.join(dir, 'w/a.jpg'));
      for (let i = 0; i < 40 && events.length < 2; i++) await sleep(100);
      expect(events.map((e) => e.type).sort()).toEqual(['added', 'removed']);
      expect(row('w/b.jpg')).toMatchObject({ status: 'present', size: 2 });
      expect(row('w/a.jpg')!.status).toBe('missing');

      // A permission change fires the watch but changes nothing the store knows: not reported.
      // A file added after it is the barrier (events come in order): once it is reported, the
      // permission change was handled, without a fixed wait.
      events.length = 0;
      await chmod(path.join(dir, 'w/b.jpg'), 0o600);
      await writeFile(path.join(dir, 'w/after-chmod.jpg'), 'm');
      for (let i = 0; i < 40 && events.length < 1; i++) await sleep(100);
      expect(events.map((e) => [e.type, path.basename(e.path)])).toEqual([
        ['added', 'after-chmod.jpg'],
      ]);
      events.length = 0;

      // A folder added while watching is watched too.
      await mkdir(path.join(dir, 'second'));
      await library.addFolder(path.join(dir, 'second'));
      await writeFile(path.join(dir, 'second/c.png'), 'c');
      for (let i = 0; i < 40 && events.length < 1; i++) await sleep(100);
      expect(row('second/c.png')!.status).toBe('present');
    } finally {
      await watcher.close();
    }
  });
});
