import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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
} from './export-fixture.js';

let dir: string;
let remove: () => Promise<void>;
let fx: Fixture;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('labeldesk-export-'));
  fx = await buildFixture(dir);
});
afterAll(() => remove());

describe('COCO export', () => {
  it('names images relative to the image root, the absolute path kept beside', async () => {
    const out = join(dir, 'rooted.json');
    await exportLibrary({ items: fx.items, format: 'coco', out, imageRoot: dir });
    const coco = JSON.parse(await readFile(out, 'utf8'));
    expect(coco.info.image_root).toBe(dir);
    const paths = fx.items.filter((i) => i.media.kind === 'image').map((i) => i.media.path);
    expect(coco.images.map((im: any) => im.absolute_path)).toEqual(paths);
    expect(coco.images.map((im: any) => im.file_name)).toEqual(
      paths.map((p) => relative(dir, p).split(sep).join('/')),
    );
  });

  it('writes displayed sizes, pixel boxes of the oriented image and the class list', async () => {
    const out = join(dir, 'coco', 'labels.json');
    // An async source, as a store adapter may provide.
    async function* items() {
      yield* fx.items;
    }
    const progress: number[] = [];
    const summary = await exportLibrary({
      items: items(),
      format: 'coco',
      out,
      classes: CLASSES,
      onProgress: (p) => progress.push(p.files),
    });
    expect(summary).toEqual({ files: 4, boxes: 4, skipped: 1, written: [out] });
    expect(progress.at(-1)).toBe(4);
    // Only the file itself: the temp and side files are gone.
    expect(await readdir(join(dir, 'coco'))).toEqual(['labels.json']);

    const coco = JSON.parse(await readFile(out, 'utf8'));
    expect(coco.categories.map((c: any) => c.name)).toEqual([
      ...CLASSES,
      LABELS.comma,
      LABELS.cjk,
      LABELS.newline,
    ]);
    expect(coco.categories.map((c: any) => c.id)).toEqual([1, 2, 3, 4, 5]);
    expect(coco.images).toHaveLength(4);
    const byId = new Map<number, any>(coco.images.map((im: any) => [im.id, im]));
    for (const im of coco.images) {
      expect({ width: im.width, height: im.height }).toEqual(fx.truth.get(im.absolute_path));
    }
    // The orientation-6 file is 300×200 on disk and 200×300 on screen.
    expect(coco.images[0]).toMatchObject({ width: 200, height: 300 });
    // Without an image root, names are relative to the export's own folder, with / separators.
    expect(coco.info.image_root).toBe(dirname(out));
    for (const im of coco.images) {
      expect(im.file_name).toBe(relative(dirname(out), im.absolute_path).split(sep).join('/'));
      expect(im.file_name.startsWith('/')).toBe(false);
    }

    const detections = fx.items
      .filter((i) => i.media.kind === 'image')
      .flatMap((i) => i.detections);
    expect(coco.annotations).toHaveLength(detections.length);
    coco.annotations.forEach((ann: any, i: number) => {
      const d = detections[i]!;
      const size = fx.truth.get(byId.get(ann.image_id).absolute_path)!;
      const e = expectedCorners(d.bbox, size);
      const [x, y, w, h] = ann.bbox as number[];
      expect(x).toBeCloseTo(e.xmin, 2);
      expect(y).toBeCloseTo(e.ymin, 2);
      expect(x! + w!).toBeCloseTo(e.xmax, 2);
      expect(y! + h!).toBeCloseTo(e.ymax, 2);
      expect(x! + w!).toBeLessThanOrEqual(size.width);
      expect(ann.area).toBeCloseTo(w! * h!, 1);
      expect(ann.iscrowd).toBe(0);
      expect(ann.score).toBeCloseTo(d.score as number, 4);
      expect(coco.categories[ann.category_id - 1].name).toBe(d.label);
    });
    // Clamped at the right edge of the displayed (200 px wide) image.
    expect(coco.annotations[1].bbox).toEqual([120, 210, 80, 60]);
  });

  it('writes a valid empty document for no items', async () => {
    const out = join(dir, 'coco-empty.json');
    const summary = await exportLibrary({ items: [], format: 'coco', out });
    expect(summary).toMatchObject({ files: 0, boxes: 0 });
    const coco = JSON.parse(await readFile(out, 'utf8'));
    expect(coco).toMatchObject({ images: [], annotations: [], categories: [] });
  });
});

describe('CSV export', () => {
  it('writes one RFC 4180 row per box, clips with frame and time', async () => {
    const out = join(dir, 'boxes.csv');
    const summary = await exportLibrary({ items: fx.items, format: 'csv', out });
    expect(summary).toMatchObject({ files: 5, boxes: 7, skipped: 0 });
    const text = await readFile(out, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'path',
      'width',
      'height',
      'label',
      'score',
      'xmin',
      'ymin',
      'xmax',
      'ymax',
      'frame',
      'timeMs',
      'iscrowd',
    ]);
    const expected = fx.items.flatMap((i) => i.detections.map((d) => ({ m: i.media, d })));
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, i) => {
      const { m, d } = expected[i]!;
      expect(row).toHaveLength(12);
      const [path, w, h, label, score, x0, y0, x1, y1, frame, timeMs] = row;
      expect(path).toBe(m.path);
      expect(label).toBe(d.label);
      const size = fx.truth.get(m.path)!;
      expect({ width: Number(w), height: Number(h) }).toEqual(size);
      const e = expectedCorners(d.bbox, size);
      expect(Number(x0)).toBeCloseTo(e.xmin, 2);
      expect(Number(y0)).toBeCloseTo(e.ymin, 2);
      expect(Number(x1)).toBeCloseTo(e.xmax, 2);
      expect(Number(y1)).toBeCloseTo(e.ymax, 2);
      expect(Number(score)).toBeCloseTo(d.score as number, 4);
      if (m.kind === 'video') {
        expect(Number(frame)).toBe(Math.round((d.timeMs! * m.fps!) / 1000));
        expect(Number(timeMs)).toBe(d.timeMs);
      } else {
        expect([frame, timeMs]).toEqual(['', '']);
      }
    });
    expect(rows.map((r) => r[3])).toContain(LABELS.newline);
  });

  it('writes only the header for no items', async () => {
    const out = join(dir, 'empty.csv');
    await exportLibrary({ items: [], format: 'csv', out });
    expect(parseCsv(await readFile(out, 'utf8'))).toHaveLength(1);
  });
});
