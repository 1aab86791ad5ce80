import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import { tempDir } from '../../../support/temp-dir.js';
import {
  buildFixture,
  CLASSES,
  expectedCorners,
  type Fixture,
  LABELS,
  parseCsv,
  xmlUnescape,
} from './export-fixture.js';

let dir: string;
let remove: () => Promise<void>;
let fx: Fixture;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('labeldesk-export-'));
  fx = await buildFixture(dir);
});
afterAll(() => remove());

const images = () => fx.items.filter((i) => i.media.kind === 'image');

describe('YOLO export', () => {
  it('writes normalised centre boxes, classes.txt and a data.yaml with quoted names', async () => {
    const out = join(dir, 'yolo');
    const summary = await exportLibrary({ items: fx.items, format: 'yolo', out, classes: CLASSES });
    expect(summary).toMatchObject({ files: 4, boxes: 4, skipped: 1 });
    expect(summary.written).toHaveLength(4 + 4);
    expect((await readdir(out)).sort()).toEqual([
      '.labeldesk-export.json',
      'classes.txt',
      'data.yaml',
      'labels',
      'sources.csv',
    ]);

    const yaml = await readFile(join(out, 'data.yaml'), 'utf8');
    const names = [...yaml.matchAll(/^ {2}(\d+): (".*")$/gm)].map((m) => JSON.parse(m[2]!));
    expect(names).toEqual([...CLASSES, LABELS.comma, LABELS.cjk, LABELS.newline]);
    expect(yaml).toMatch(/^nc: 5$/m);
    const classesTxt = (await readFile(join(out, 'classes.txt'), 'utf8')).split('\n');
    expect(classesTxt.slice(0, 4)).toEqual([...CLASSES, LABELS.comma, LABELS.cjk]);

    const [, ...sources] = parseCsv(await readFile(join(out, 'sources.csv'), 'utf8'));
    const fileOf = new Map(sources.map(([file, path]) => [path!, file!]));
    // Equal base names in different folders get different, deterministic names.
    expect(fileOf.get(images()[0]!.media.path)).toBe('labels/photo.txt');
    expect(fileOf.get(images()[1]!.media.path)).toMatch(/^labels\/photo-[0-9a-f]{8}\.txt$/);
    for (const { media, detections } of images()) {
      const text = await readFile(join(out, fileOf.get(media.path)!), 'utf8');
      const lines = text.split('\n').filter(Boolean);
      expect(lines).toHaveLength(detections.length);
      lines.forEach((line, i) => {
        const [cls, cx, cy, w, h] = line.split(' ').map(Number);
        const d = detections[i]!;
        expect(names[cls!]).toBe(d.label);
        // Back to pixels of the true displayed image, as a YOLO loader would.
        const size = fx.truth.get(media.path)!;
        const e = expectedCorners(d.bbox, size);
        expect((cx! - w! / 2) * size.width).toBeCloseTo(e.xmin, 2);
        expect((cy! - h! / 2) * size.height).toBeCloseTo(e.ymin, 2);
        expect((cx! + w! / 2) * size.width).toBeCloseTo(e.xmax, 2);
        expect((cy! + h! / 2) * size.height).toBeCloseTo(e.ymax, 2);
      });
    }
  });
});

describe('Pascal VOC export', () => {
  it('writes one well-formed XML per image with displayed sizes, devkit pixels and escaped labels', async () => {
    const out = join(dir, 'voc');
    const summary = await exportLibrary({ items: fx.items, format: 'voc', out });
    expect(summary).toMatchObject({ files: 4, boxes: 4, skipped: 1 });
    const files = (await readdir(out)).filter((f) => f !== '.labeldesk-export.json');
    expect(files).toHaveLength(4);
    const seen = new Set<string>();
    for (const file of files) {
      const xml = await readFile(join(out, file), 'utf8');
      expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
      const path = xmlUnescape(/<path>([^<]*)<\/path>/.exec(xml)![1]!);
      seen.add(path);
      const item = images().find((i) => i.media.path === path)!;
      const size = fx.truth.get(path)!;
      expect(Number(/<width>(\d+)</.exec(xml)![1])).toBe(size.width);
      expect(Number(/<height>(\d+)</.exec(xml)![1])).toBe(size.height);
      const objects = [...xml.matchAll(/<object>([\s\S]*?)<\/object>/g)].map((m) => m[1]!);
      expect(objects).toHaveLength(item.detections.length);
      objects.forEach((o, i) => {
        const d = item.detections[i]!;
        expect(xmlUnescape(/<name>([^<]*)<\/name>/.exec(o)![1]!)).toBe(d.label);
        const e = expectedCorners(d.bbox, size);
        for (const k of ['xmin', 'ymin', 'xmax', 'ymax'] as const) {
          // The devkit counts pixels from 1: its box covers xmin − 1 … xmax in pixel edges.
          const from1 = k === 'xmin' || k === 'ymin' ? 1 : 0;
          const v = Number(new RegExp(`<${k}>(\\d+)</${k}>`).exec(o)![1]) - from1;
          expect(Math.abs(v - e[k])).toBeLessThanOrEqual(0.5);
        }
      });
    }
    expect(seen.size).toBe(4);
  });
});

describe('MOT export', () => {
  it('writes one file per clip, frames from 1 in order, pixels of the clip', async () => {
    const out = join(dir, 'mot');
    const summary = await exportLibrary({ items: fx.items, format: 'mot', out });
    expect(summary).toMatchObject({ files: 1, boxes: 3, skipped: 4 });
    expect((await readdir(out)).sort()).toEqual([
      '.labeldesk-export.json',
      'classes.txt',
      'clip, one.txt',
      'sources.csv',
    ]);
    const classes = (await readFile(join(out, 'classes.txt'), 'utf8')).split('\n');
    const clip = fx.items.find((i) => i.media.kind === 'video')!;
    const size = fx.truth.get(clip.media.path)!;
    const lines = (await readFile(join(out, 'clip, one.txt'), 'utf8')).split('\n').filter(Boolean);
    const rows = lines.map((l) => l.split(',').map(Number));
    expect(rows.every((r) => r.length === 10)).toBe(true);
    expect(rows.map((r) => r[0])).toEqual([1, 6, 11]);
    const byFrame = [...clip.detections].sort((a, b) => a.timeMs! - b.timeMs!);
    rows.forEach((r, i) => {
      const d = byFrame[i]!;
      const e = expectedCorners(d.bbox, size);
      // Boxes in no track are tracks of their own (issue 28: MOT ids are 1 or more, never -1).
      expect(r.slice(0, 2)).toEqual([Math.round((d.timeMs! * 10) / 1000) + 1, i + 1]);
      expect(r[2]).toBeCloseTo(e.xmin, 2);
      expect(r[3]).toBeCloseTo(e.ymin, 2);
      expect(r[2]! + r[4]!).toBeCloseTo(e.xmax, 2);
      expect(r[3]! + r[5]!).toBeCloseTo(e.ymax, 2);
      expect(r[6]).toBeCloseTo(d.score as number, 4);
      // The 8th column is the class, named by its line in classes.txt.
      expect(classes[r[7]!]).toBe(d.label);
      expect(r.slice(8)).toEqual([-1, -1]);
    });
    const [, source] = parseCsv(await readFile(join(out, 'sources.csv'), 'utf8'));
    expect(source!.slice(0, 2)).toEqual(['clip, one.txt', clip.media.path]);
  });
});

describe('empty exports', () => {
  it.each(['yolo', 'voc', 'mot'] as const)('%s: a valid empty folder', async (format) => {
    const out = join(dir, `empty-${format}`);
    const summary = await exportLibrary({ items: [], format, out });
    expect(summary).toMatchObject({ files: 0, boxes: 0, skipped: 0 });
    const expected = {
      yolo: ['classes.txt', 'data.yaml', 'labels', 'sources.csv'],
      voc: [],
      mot: ['classes.txt', 'sources.csv'],
    };
    expect((await readdir(out)).sort()).toEqual(['.labeldesk-export.json', ...expected[format]]);
    if (format === 'yolo')
      expect(await readFile(join(out, 'data.yaml'), 'utf8')).toMatch(/^names: \{\}$/m);
  });
});
