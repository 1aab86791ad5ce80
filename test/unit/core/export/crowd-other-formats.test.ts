/**
 * Crowd regions (COCO's `iscrowd`) in the formats that have no such flag, each as its own
 * references expect: YOLO leaves them out (as Ultralytics' COCO converter does), VOC writes them
 * as `difficult` objects (what the devkit's evaluation ignores) and reads those back as crowd
 * regions, CSV carries an `iscrowd` column and reads it back.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import { readLabels } from '../../../../electron/core/import/read-labels.js';
import type { DetectionRow, ExportItem } from '../../../../electron/core/store/store-types.js';
import { tempDir } from '../../../support/temp-dir.js';
import { mediaRecord, parseCsv } from './export-fixture.js';

let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('labeldesk-crowd-'));
});
afterAll(() => remove());

function box(id: number, x: number, crowd: boolean): DetectionRow {
  return {
    id,
    resultId: 1,
    frameIndex: 0,
    timeMs: null,
    label: 'person',
    classId: 0,
    score: null,
    bbox: { x, y: 0.2, w: 0.2, h: 0.4 },
    origin: 'added',
    review: 'accepted',
    ...(crowd ? { crowd: true } : {}),
  };
}

function items(): ExportItem[] {
  const media = mediaRecord('/lib/street.jpg', { width: 100, height: 50 });
  const result = {
    id: 1,
    contentHash: 'h1',
    solution: 'objects',
    serviceUrl: 'http://127.0.0.1',
    analysedWidth: 100,
    analysedHeight: 50,
    model: null,
    boxCount: 2,
    createdAt: 0,
  };
  return [{ media, result, detections: [box(1, 0.1, false), box(2, 0.5, true)] }];
}

/** The boxes read back: [x0, crowd] per box. */
async function readBack(format: 'voc' | 'csv', source: string) {
  const read = await readLabels(format, source);
  expect(read.issues).toEqual([]);
  return read.files.flatMap((f) => f.boxes.map((b) => [b.x0, b.crowd === true]));
}

describe('crowd regions outside COCO', () => {
  it('YOLO leaves them out', async () => {
    const out = join(dir, 'yolo');
    const summary = await exportLibrary({ items: items(), format: 'yolo', out });
    expect(summary.boxes).toBe(1);
    const lines = (await readFile(join(out, 'labels', 'street.txt'), 'utf8')).trim().split('\n');
    expect(lines).toEqual(['0 0.2 0.4 0.2 0.4']);
  });

  it('VOC writes them as difficult objects and reads them back as crowd regions', async () => {
    const out = join(dir, 'voc');
    await exportLibrary({ items: items(), format: 'voc', out });
    const xml = await readFile(join(out, 'street.xml'), 'utf8');
    expect([...xml.matchAll(/<difficult>(\d)<\/difficult>/g)].map((m) => m[1])).toEqual(['0', '1']);
    expect(await readBack('voc', out)).toEqual([
      [10, false],
      [50, true],
    ]);
  });

  it('CSV carries an iscrowd column and reads it back', async () => {
    const out = join(dir, 'boxes.csv');
    await exportLibrary({ items: items(), format: 'csv', out });
    const [header, ...rows] = parseCsv(await readFile(out, 'utf8'));
    expect(header?.at(-1)).toBe('iscrowd');
    expect(rows.map((r) => r.at(-1))).toEqual(['0', '1']);
    expect(await readBack('csv', out)).toEqual([
      [10, false],
      [50, true],
    ]);
  });
});
