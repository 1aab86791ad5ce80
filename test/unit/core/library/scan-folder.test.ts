import { chmod, mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mediaKindOf } from '../../../../electron/core/library/media-types.js';
import {
  type ScanEntry,
  type ScanIssue,
  type ScanOptions,
  scanFolder,
} from '../../../../electron/core/library/scan-folder.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await tempDir('labeldesk-scan-')));
afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await remove();
});

async function scan(root: string, options: ScanOptions = {}) {
  const entries: ScanEntry[] = [];
  const issues: ScanIssue[] = [];
  const batches: number[] = [];
  for await (const batch of scanFolder(root, { ...options, onIssue: (i) => issues.push(i) })) {
    batches.push(batch.length);
    entries.push(...batch);
  }
  entries.sort((a, b) => a.path.localeCompare(b.path));
  return { entries, issues, batches };
}

async function put(rel: string, bytes = 'x') {
  const file = path.join(dir, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return file;
}

describe('scanFolder', () => {
  it('finds media in nested folders by extension, case-insensitively, with size and mtime', async () => {
    await put('a.JPG', '12345');
    await put('x/b.png');
    await put('x/y/z/c.MkV');
    await put('x/y/notes.txt');
    await put('x/y/no-extension');
    const { entries, issues } = await scan(dir);
    expect(issues).toEqual([]);
    expect(entries.map((e) => [path.relative(dir, e.path), e.kind])).toEqual([
      ['a.JPG', 'image'],
      ['x/b.png', 'image'],
      ['x/y/z/c.MkV', 'video'],
    ]);
    const st = await stat(path.join(dir, 'a.JPG'));
    expect(entries[0]).toMatchObject({ size: 5, mtimeMs: st.mtimeMs });
  });

  it('walks in name order, folders too, so rows reach the store in about path order', async () => {
    const names: string[] = [];
    for (const d of ['b', 'a', 'c'])
      for (let f = 0; f < 40; f++) names.push(await put(`${d}/img-${f}.jpg`));
    names.push(await put('top.jpg'));
    const seen: string[] = [];
    for await (const batch of scanFolder(dir, { folderConcurrency: 1 }))
      seen.push(...batch.map((e) => e.path));
    // One folder at a time: exactly path order (the root's files, then each folder by name).
    expect(seen).toEqual(
      ['top.jpg', ...names.slice(0, -1).sort()].map((n) => path.resolve(dir, n)),
    );
  });

  it('knows every listed extension', () => {
    for (const ext of 'jpg jpeg png webp gif tif tiff avif bmp'.split(' '))
      expect(mediaKindOf(`a.${ext.toUpperCase()}`)).toBe('image');
    for (const ext of 'mp4 webm mov avi mkv m4v'.split(' '))
      expect(mediaKindOf(`a.${ext}`)).toBe('video');
    expect(mediaKindOf('a.txt')).toBeUndefined();
    expect(mediaKindOf('jpg')).toBeUndefined();
  });

  it('streams bounded batches', async () => {
    for (let i = 0; i < 25; i++) await put(`d${i % 3}/f${i}.jpg`);
    const { entries, batches } = await scan(dir, { batchSize: 4 });
    expect(entries).toHaveLength(25);
    expect(Math.max(...batches)).toBeLessThanOrEqual(4);
  });

  it('stops the walk when the consumer stops early', async () => {
    for (let i = 0; i < 50; i++) await put(`d${i % 5}/f${i}.jpg`);
    let seen = 0;
    for await (const batch of scanFolder(dir, { batchSize: 5 })) {
      seen += batch.length;
      break;
    }
    expect(seen).toBe(5);
  });

  it('never follows a link to a folder, even to /; lists each such link once', async () => {
    await put('a/b/one.jpg');
    await symlink(path.join(dir, 'a'), path.join(dir, 'a/b/back-to-a'));
    await symlink(path.join(dir, 'a/b'), path.join(dir, 'alias-of-b'));
    await symlink('/', path.join(dir, 'root-link'));
    await symlink('/etc', path.join(dir, 'a/etc.jpg'));
    for (const mode of ['auto', 'async'] as const) {
      const { entries, issues } = await scan(dir, { mode });
      expect(entries.map((e) => path.relative(dir, e.path))).toEqual(['a/b/one.jpg']);
      expect(issues.map((i) => [path.relative(dir, i.path), i.code]).sort()).toEqual([
        ['a/b/back-to-a', 'linked_folder'],
        ['a/etc.jpg', 'linked_folder'],
        ['alias-of-b', 'linked_folder'],
        ['root-link', 'linked_folder'],
      ]);
      expect(issues[0]!.message).toMatch(/^Linked folder not followed/);
    }
  });

  it('takes a link to a regular file outside the root, with the identity of its target', async () => {
    const { dir: outside, remove: removeOutside } = await tempDir('labeldesk-outside-');
    try {
      await writeFile(path.join(outside, 'far.webp'), 'x');
      await mkdir(path.join(outside, 'sub'));
      await writeFile(path.join(outside, 'sub', 'hidden.jpg'), 'x');
      await symlink(path.join(outside, 'sub'), path.join(dir, 'linked'));
      await symlink(path.join(outside, 'far.webp'), path.join(dir, 'direct.webp'));
      await symlink(path.join(dir, 'nothing.jpg'), path.join(dir, 'broken.jpg'));
      await symlink('/dev/null', path.join(dir, 'device.jpg'));
      await symlink('/etc/hostname', path.join(dir, 'notes.txt'));
      const { entries, issues } = await scan(dir);
      expect(entries.map((e) => path.relative(dir, e.path))).toEqual(['direct.webp']);
      const target = statSync(path.join(outside, 'far.webp'));
      expect(entries[0]!.fileId).toBe(`${target.dev}:${target.ino}`);
      expect(issues.map((i) => [path.basename(i.path), i.code]).sort()).toEqual([
        ['broken.jpg', 'broken_link'],
        ['device.jpg', 'link_not_a_file'],
        ['linked', 'linked_folder'],
      ]);
    } finally {
      await removeOutside();
    }
  });

  it.each(['auto', 'async'] as const)(
    'reports a file deleted between readdir and stat as vanished (%s calls)',
    async (mode) => {
      await put('keep.jpg');
      const doomed = await put('sub/doomed.jpg');
      // The real stat, after really deleting the file: the race, made deterministic.
      const { entries, issues } = await scan(dir, {
        mode,
        fs: {
          stat: async (p) => {
            if (p === doomed) await rm(doomed);
            return stat(p);
          },
          statSync: (p) => {
            if (p === doomed) rmSync(doomed);
            return statSync(p);
          },
        },
      });
      expect(entries.map((e) => path.basename(e.path))).toEqual(['keep.jpg']);
      expect(issues).toEqual([{ path: doomed, code: 'vanished', message: expect.any(String) }]);
    },
  );

  it("leaves the stat of the files statLater names to their reader, links still stat'ed", async () => {
    const later = await put('new/a.jpg', '12345');
    const known = await put('known/b.jpg', '123');
    await symlink(known, path.join(dir, 'link.jpg'));
    const statted: string[] = [];
    const { entries, issues } = await scan(dir, {
      statLater: (p) => p !== known,
      fs: {
        statSync: (p) => {
          statted.push(p);
          return statSync(p);
        },
      },
    });
    expect(issues).toEqual([]);
    expect(statted).not.toContain(later);
    expect(statted).toContain(known);
    expect(statted).toContain(path.join(dir, 'link.jpg'));
    const byName = new Map(entries.map((e) => [path.basename(e.path), e]));
    expect(byName.get('a.jpg')).toEqual({ path: later, kind: 'image', size: -1, mtimeMs: -1 });
    expect(byName.get('b.jpg')).toMatchObject({ size: 3 });
    expect(byName.get('link.jpg')).toMatchObject({ size: 3 });
  });

  it('gives the same result with async calls', async () => {
    for (let i = 0; i < 30; i++) await put(`d${i % 4}/e${i % 3}/f${i}.jpg`);
    await symlink(path.join(dir, 'd0'), path.join(dir, 'd1/link'));
    const auto = await scan(dir);
    const async = await scan(dir, { mode: 'async' });
    expect(async).toEqual(auto);
    expect(auto.entries).toHaveLength(30);
    expect(auto.issues.map((i) => i.code)).toEqual(['linked_folder']);
  });

  it('reports a name that is not valid UTF-8 and keeps scanning', async () => {
    await put('sub/good.jpg');
    const bad = Buffer.concat([
      Buffer.from(`${dir}/sub/bad-`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('.jpg'),
    ]);
    writeFileSync(bad, 'x');
    // A real U+FFFD in a valid name is not a problem.
    await put('sub/fine-\uFFFD.jpg');
    const { entries, issues } = await scan(dir);
    expect(entries.map((e) => path.basename(e.path))).toEqual(['fine-\uFFFD.jpg', 'good.jpg']);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      code: 'undecodable_name',
      path: path.join(dir, 'sub', 'bad-\uFFFD\uFFFD.jpg'),
    });
    expect(issues[0]!.message).toContain('fffe');
  });

  it('reports an unreadable folder and scans the rest', async () => {
    await put('open/a.jpg');
    await put('locked/b.jpg');
    await chmod(dir, 0o755);
    await chmod(path.join(dir, 'locked'), 0o000);
    // Root ignores permission bits; scanning as `nobody` (effective uid, reverted) makes them real.
    const asRoot = process.geteuid?.() === 0;
    if (asRoot) process.seteuid!(65534);
    let result;
    try {
      result = await scan(dir);
    } finally {
      if (asRoot) process.seteuid!(0);
    }
    await chmod(path.join(dir, 'locked'), 0o755);
    expect(result.entries.map((e) => path.relative(dir, e.path))).toEqual(['open/a.jpg']);
    expect(result.issues).toEqual([
      { path: path.join(dir, 'locked'), code: 'unreadable_folder', message: expect.any(String) },
    ]);
  });

  it('reports a missing root as one issue', async () => {
    const { entries, issues } = await scan(path.join(dir, 'nope'));
    expect(entries).toEqual([]);
    expect(issues.map((i) => i.code)).toEqual(['folder_missing']);
  });
});
