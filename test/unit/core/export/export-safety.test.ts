import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import type { ExportItem } from '../../../../electron/core/store/store-types.js';
import { tempDir } from '../../../support/temp-dir.js';
import { mediaRecord } from './export-fixture.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await tempDir('labeldesk-export-safety-')));
afterEach(() => remove());

const HOSTILE = [
  '../../etc/passwd.jpg',
  '..\\..\\windows\\system.ini',
  '/media/..',
  '/media/.hidden.jpg',
  '/media/CON.jpg',
  '/media/nul',
  '/media/a\u0000b.jpg',
  '/media/trailing. .',
  '/media/sources.mp4',
  'C:\\Users\\x\\photo.jpg',
  '/other/photo.jpg',
  '/other/PHOTO.jpg',
  `/media/${'é'.repeat(300)}.jpg`,
];

function items(kind: 'image' | 'video'): ExportItem[] {
  return HOSTILE.map((path, i) => ({
    media: mediaRecord(path, { id: i + 1, kind, fps: kind === 'video' ? 25 : null }),
    result: {
      id: i + 1,
      contentHash: 'h',
      solution: 's',
      serviceUrl: 'u',
      analysedWidth: 100,
      analysedHeight: 50,
      model: null,
      boxCount: 1,
      createdAt: 0,
    },
    detections: [
      {
        id: i + 1,
        resultId: i + 1,
        frameIndex: 0,
        timeMs: 0,
        label: 'x',
        classId: null,
        score: 1,
        bbox: { x: 0, y: 0, w: 1, h: 1 },
        origin: 'model',
        review: 'pending',
      },
    ],
  }));
}

async function listAll(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
}

describe('export safety', () => {
  it.each(['yolo', 'voc', 'mot'] as const)(
    '%s: hostile media paths stay inside out, with unique names',
    async (format) => {
      const out = join(dir, 'out');
      const summary = await exportLibrary({
        items: items(format === 'mot' ? 'video' : 'image'),
        format,
        out,
      });
      expect(summary.files).toBe(HOSTILE.length);
      // Nothing but the export in the parent folder, nothing in the export but plain names.
      expect(await readdir(dir)).toEqual(['out']);
      const files = await listAll(out);
      const perMedia = files.filter(
        (f) =>
          f !== 'sources.csv' &&
          !f.endsWith('classes.txt') &&
          f !== 'data.yaml' &&
          // The marker starts with a dot, which no per-media name can (checked below).
          f !== '.labeldesk-export.json',
      );
      expect(perMedia).toHaveLength(HOSTILE.length);
      expect(new Set(perMedia.map((f) => f.toLowerCase())).size).toBe(HOSTILE.length);
      for (const f of perMedia) {
        const name = f.split(sep).at(-1)!;
        // eslint-disable-next-line no-control-regex
        expect(name).not.toMatch(/^\.|[\u0000-\u001f\\/:*?"<>|]|[. ]$/);
        expect(name.split('.')[0]!.toUpperCase()).not.toMatch(/^(CON|NUL|PRN|AUX)$/);
        expect(Buffer.byteLength(name)).toBeLessThan(255);
      }
      expect(summary.written.every((w) => w.startsWith(out + sep))).toBe(true);
    },
  );

  it('names are deterministic across runs', async () => {
    const a = await exportLibrary({ items: items('image'), format: 'voc', out: join(dir, 'a') });
    const b = await exportLibrary({ items: items('image'), format: 'voc', out: join(dir, 'b') });
    const names = (w: string[]) => w.map((p) => p.split(sep).at(-1));
    expect(names(a.written)).toEqual(names(b.written));
  });

  it('a failing source leaves no file and no temp behind', async () => {
    function* failing(): Generator<ExportItem> {
      yield* items('image').slice(0, 3);
      throw new Error('database went away');
    }
    for (const format of ['coco', 'csv', 'yolo', 'voc'] as const) {
      await expect(
        exportLibrary({ items: failing(), format, out: join(dir, `x-${format}`) }),
      ).rejects.toThrow('database went away');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('a cancelled export leaves nothing', async () => {
    const controller = new AbortController();
    const source = (function* () {
      for (const [i, it] of items('image').entries()) {
        if (i === 2) controller.abort();
        yield it;
      }
    })();
    await expect(
      exportLibrary({
        items: source,
        format: 'coco',
        out: join(dir, 'c.json'),
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a non-empty folder and keeps what is in it, even when asked to replace', async () => {
    const out = join(dir, 'busy');
    await mkdir(out);
    await writeFile(join(out, 'keep.txt'), 'mine');
    await expect(exportLibrary({ items: [], format: 'voc', out })).rejects.toThrow(/not empty/);
    await expect(exportLibrary({ items: [], format: 'yolo', out, replace: true })).rejects.toThrow(
      /holds no LabelDesk export/,
    );
    expect(await readdir(out)).toEqual(['keep.txt']);
    expect(await readFile(join(out, 'keep.txt'), 'utf8')).toBe('mine');
    // An empty folder is fine (a save dialog may have created it).
    await mkdir(join(dir, 'fresh'));
    await exportLibrary({ items: items('image'), format: 'yolo', out: join(dir, 'fresh') });
  });

  it.each(['coco', 'csv'] as const)(
    '%s: an existing file is refused, and replaced with replace',
    async (format) => {
      const file = join(dir, `old.${format}`);
      await writeFile(file, 'old');
      await expect(exportLibrary({ items: [], format, out: file })).rejects.toMatchObject({
        code: 'target_exists',
      });
      expect(await readFile(file, 'utf8')).toBe('old');
      await exportLibrary({ items: [], format, out: file, replace: true });
      expect(await readFile(file, 'utf8')).not.toBe('old');
    },
  );

  it.each(['yolo', 'voc', 'mot'] as const)(
    '%s: a previous export is refused, and replaced whole with replace',
    async (format) => {
      const out = join(dir, format);
      await exportLibrary({ items: items('image'), format, out });
      const before = await readdir(out);
      await writeFile(join(out, 'stale.txt'), 'from the last export');
      await expect(exportLibrary({ items: [], format, out })).rejects.toMatchObject({
        code: 'target_exists',
      });
      expect((await readdir(out)).length).toBe(before.length + 1);
      await exportLibrary({ items: [], format, out, replace: true });
      expect(await readdir(out)).not.toContain('stale.txt');
      expect(await readdir(out)).toContain('.labeldesk-export.json');
      // Nothing is left beside it (no temp, no moved-aside copy).
      expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
    },
  );
});
