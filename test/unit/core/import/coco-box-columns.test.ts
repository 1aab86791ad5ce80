/**
 * A COCO file's boxes are kept in columns while it is read and packed from them for the reading
 * thread's messages: every file gets exactly its own boxes, in the order the file lists them,
 * wherever they are in the annotations and across the chunks they are parsed in, however the
 * files are batched; a spoiled image gives none.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCoco, readCocoBatches } from '../../../../electron/core/import/coco-reader.js';
import type { ImportedBox } from '../../../../electron/core/import/import-model.js';
import { readLabelBatches } from '../../../../electron/core/import/read-labels.js';
import { unpackBoxes } from '../../../../electron/core/import/packed-boxes.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => (t = await tempDir('labeldesk-coco-columns-')));
afterAll(() => t.remove());

interface Annotation {
  id: number;
  image_id: number;
  category_id: number;
  bbox: number[];
  iscrowd?: number;
  segmentation?: number[][];
}

/**
 * 300 images, 10,000 annotations in a shuffled order (more than two parsed chunks); `sorted`: by
 * image, as most tools write them (each file's kept texts then one run of a chunk).
 */
function dataset(sorted = false) {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const images = Array.from({ length: 300 }, (_, i) => ({
    id: 1000 + i,
    file_name: `f${i}.jpg`,
    width: 640,
    height: 480,
  }));
  const annotations: Annotation[] = Array.from({ length: 10_000 }, (_, i) => ({
    id: i + 1,
    image_id: 1000 + Math.floor(random() * 300),
    category_id: 1 + (i % 3),
    bbox: [random() * 100, random() * 100, 1 + random() * 50, 1 + random() * 50],
    ...(i % 7 === 0 ? { iscrowd: 1 } : {}),
    ...(i % 11 === 0 ? { segmentation: [[1, 2, 3, 4]] } : {}),
  }));
  if (sorted) annotations.sort((a, b) => a.image_id - b.image_id);
  // Image 1005 is spoiled half-way through its boxes.
  annotations.splice(5000, 0, { id: 99_999, image_id: 1005, category_id: 1, bbox: [1, 1, 0, 1] });
  const categories = [1, 2, 3].map((id) => ({ id, name: `c${id}` }));
  return { images, annotations, categories };
}

/** Each image's boxes as the reader should give them, built here from the document. */
function expected(doc: ReturnType<typeof dataset>): Map<string, ImportedBox[]> {
  const out = new Map<string, ImportedBox[]>();
  for (const img of doc.images) if (img.id !== 1005) out.set(img.file_name, []);
  for (const a of doc.annotations) {
    const [x, y, w, h] = a.bbox as [number, number, number, number];
    const box: ImportedBox = {
      label: `c${a.category_id}`,
      unit: 'px',
      x0: x,
      y0: y,
      x1: x + w,
      y1: y + h,
      frame: null,
      timeMs: null,
      // The annotation's own text (the file is written with JSON.stringify).
      coco: JSON.stringify(a),
    };
    if (a.iscrowd === 1) box.crowd = true;
    out.get(`f${a.image_id - 1000}.jpg`)?.push(box);
  }
  return out;
}

describe('COCO boxes in columns', () => {
  it.each([false, true])(
    'give each file its own boxes in order, whole or in batches of any size (sorted: %s)',
    async (sorted) => {
      const doc = dataset(sorted);
      const path = join(t.dir, `c-${sorted}.json`);
      await writeFile(path, JSON.stringify(doc));
      const want = expected(doc);

      const read = await readCoco(path);
      expect(read.issues.map((i) => i.code)).toEqual(['bad_box']);
      expect(read.files.map((f) => f.name)).toEqual([...want.keys()]);
      for (const f of read.files) expect(f.boxes).toEqual(want.get(f.name));

      for (const size of [1, 7, 250, 1000]) {
        const batches = await readCocoBatches(path);
        expect(batches.count).toBe(299);
        expect(batches.issues).toEqual(read.issues);
        expect(batches.coco).toEqual(read.coco);
        for (let from = 0; from < batches.count; from += size) {
          const { json, boxes } = batches.batch(from, from + size);
          const held = JSON.parse(json) as { name: string; boxCount: number }[];
          expect(held).toHaveLength(Math.min(size, batches.count - from));
          let first = 0;
          held.forEach((h, k) => {
            const { boxes: _, ...file } = read.files[from + k] as (typeof read.files)[number];
            expect(h).toEqual({ ...file, boxCount: want.get(h.name)?.length });
            expect(unpackBoxes(boxes, first, h.boxCount)).toEqual(want.get(h.name));
            first += h.boxCount;
          });
          expect(boxes.numbers.length).toBe(first * 6);
        }
      }
    },
  );

  it('a folder of COCO files, or one that is not COCO, is batched from its objects', async () => {
    const dir = join(t.dir, 'folder');
    await mkdir(dir);
    await writeFile(join(dir, 'a.json'), JSON.stringify(dataset()));
    const folder = await readLabelBatches('coco', dir);
    expect(folder.count).toBe(299);
    const broken = await readLabelBatches('coco', join(dir, 'missing.json'));
    expect(broken.count).toBe(0);
    expect(broken.issues.map((i) => i.code)).toEqual(['unreadable_source']);
    await writeFile(join(t.dir, 'not.json'), '{"hello": 1}');
    const not = await readCocoBatches(join(t.dir, 'not.json'));
    expect(not.count).toBe(0);
    expect(not.issues.map((i) => i.code)).toEqual(['unreadable_source']);
  });
});
