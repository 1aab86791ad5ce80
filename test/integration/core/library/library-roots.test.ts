/**
 * A file given on its own is a root of its own: its folder is never registered, scanned or
 * watched; a folder added later takes such files in without reading or paying for them again.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotMediaError } from '../../../../electron/core/library/library-roots.js';
import { Library } from '../../../../electron/core/library/library.js';
import { fakeLibraryStore, type FakeLibraryStore } from '../../../support/fake-library-store.js';
import { jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
let store: FakeLibraryStore;
let library: Library;
beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-roots-'));
  store = fakeLibraryStore();
  library = new Library(store);
  await mkdir(path.join(dir, 'shoot'));
  await writeFile(path.join(dir, 'shoot/a.jpg'), await jpeg(32, 24, 1));
  await writeFile(path.join(dir, 'shoot/b.jpg'), await jpeg(32, 24, 2));
  await writeFile(path.join(dir, 'shoot/notes.txt'), 'not media');
});
afterEach(() => remove());

const at = (rel: string) => path.join(dir, rel);
const paths = () => [...store.rows.keys()].sort();

describe('file roots', () => {
  it('a lone file is stored alone: its folder is neither a root nor scanned', async () => {
    const root = await library.addFile(at('shoot/a.jpg'));
    expect(root.path).toBe(at('shoot/a.jpg'));
    expect(store.folders.list().map((f) => f.path)).toEqual([at('shoot/a.jpg')]);
    expect(await library.scanAll()).toMatchObject({ new: 1, issues: 0 });
    expect(paths()).toEqual([at('shoot/a.jpg')]);
    expect(await library.hashAndProbePending()).toMatchObject({ hashed: { done: 1 } });
    expect(store.rows.get(at('shoot/a.jpg'))).toMatchObject({ width: 32, height: 24 });
    // The same file again, and a file inside an existing root, add nothing.
    expect(await library.addFile(at('shoot/a.jpg'))).toEqual(root);
    expect(store.folders.list()).toHaveLength(1);
  });

  it('refuses a file that is not media, registering nothing', async () => {
    await expect(library.addFile(at('shoot/notes.txt'))).rejects.toBeInstanceOf(NotMediaError);
    expect(store.folders.list()).toEqual([]);
  });

  it('a removed lone file is marked missing; with its folder gone too, nothing is marked', async () => {
    await library.addFile(at('shoot/a.jpg'));
    await library.scanAll();
    await rm(at('shoot/a.jpg'));
    expect(await library.scanAll()).toMatchObject({ missing: 1 });
    expect(store.rows.get(at('shoot/a.jpg'))?.status).toBe('missing');

    const other = await library.addFile(at('shoot/b.jpg'));
    await library.scan([other]);
    await rm(at('shoot'), { recursive: true });
    expect(await library.scan([other])).toMatchObject({ missing: 0 });
    expect(store.rows.get(at('shoot/b.jpg'))?.status).toBe('present');
  });

  it('scans and hashes only the roots asked for', async () => {
    await mkdir(at('other'));
    await writeFile(at('other/c.jpg'), await jpeg(16, 16, 3));
    const other = await library.addFolder(at('other'));
    const lone = await library.addFile(at('shoot/b.jpg'));
    expect(await library.scan([lone])).toMatchObject({ new: 1 });
    expect(paths()).toEqual([at('shoot/b.jpg')]);
    await library.scan([other]);
    const read = await library.hashAndProbePending(undefined, { folderIds: [lone.id] });
    expect(read.hashed.done).toBe(1);
    expect(store.rows.get(at('other/c.jpg'))?.contentHash).toBeNull();
    expect(await library.hashAndProbePending(undefined, { folderIds: [] })).toMatchObject({
      hashed: { done: 0 },
    });
  });

  it('scans only a part of a root when asked; the rest is neither read nor marked missing', async () => {
    await mkdir(at('shoot/day2'));
    await writeFile(at('shoot/day2/c.jpg'), await jpeg(16, 16, 3));
    const root = await library.addFolder(at('shoot'));
    expect(await library.scan([{ ...root, within: at('shoot/day2') }])).toMatchObject({ new: 1 });
    expect(paths()).toEqual([at('shoot/day2/c.jpg')]);
    expect(store.folders.list()[0]!.lastScanAt).toBeNull(); // the root as a whole was not scanned
    await library.scanAll();
    await rm(at('shoot/a.jpg'));
    await writeFile(at('shoot/day2/d.jpg'), await jpeg(16, 16, 4));
    // One file of the root: only it is looked at (d.jpg is not found, a.jpg not marked missing).
    expect(await library.scan([{ ...root, within: at('shoot/b.jpg') }])).toMatchObject({
      new: 0,
      unchanged: 1,
      missing: 0,
    });
    expect(store.rows.get(at('shoot/a.jpg'))?.status).toBe('present');
    expect(store.rows.has(at('shoot/day2/d.jpg'))).toBe(false);
    // The subfolder again: its new file is found, the root's own files are left alone.
    expect(await library.scan([{ ...root, within: at('shoot/day2') }])).toMatchObject({
      new: 1,
      missing: 0,
    });
    expect(store.rows.get(at('shoot/a.jpg'))?.status).toBe('present');
  });

  it('a folder added later takes its lone files in, hash and id kept', async () => {
    await library.addFile(at('shoot/a.jpg'));
    await library.scanAll();
    await library.hashAndProbePending();
    const before = store.rows.get(at('shoot/a.jpg'));
    const folder = await library.addFolder(at('shoot'));
    expect(store.folders.list()).toEqual([folder]);
    expect(store.rows.get(at('shoot/a.jpg'))).toEqual({ ...before, folderId: folder.id });
    expect(await library.scanAll()).toMatchObject({ new: 1, unchanged: 1 });
    expect(paths()).toEqual([at('shoot/a.jpg'), at('shoot/b.jpg')]);
  });

  it('watches folder roots only', async () => {
    await library.addFile(at('shoot/a.jpg'));
    // Watching a file as if it were a folder would raise an issue.
    const issues: string[] = [];
    const watching = new Library(store, { onIssue: (i) => issues.push(i.code) });
    await (await watching.watch(() => undefined)).close();
    expect(issues).toEqual([]);
  });
});
