/**
 * The COCO writer's output, byte for byte, on 400 varied images: made faster for 6M-box libraries
 * (issue 27), it must write exactly what it wrote before. The digest below is of the output of
 * the writer as it was at commit 7354f37, on these same items (`date_created` blanked).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CocoKnown } from '../../../../electron/core/export/coco-known.js';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import type { DetectionRow, ExportItem } from '../../../../electron/core/store/store-types.js';
import { tempDir } from '../../../support/temp-dir.js';
import { lcgRandom } from '../../../support/seeded-random.js';

const BEFORE = '14ab4a0c430f494f43ee79e30c01f172492f38c845b4c033c2215647961c38d5';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir('labeldesk-coco-bytes-');
});
afterEach(() => tmp.remove());

/** Kept COCO fields on one box in five: some with the box as imported, some ids taken twice. */
function keptCoco(next: () => number, bbox: DetectionRow['bbox'], n: number): string | null {
  const r = next();
  if (r < 0.8) return null;
  const px = [bbox.x * 640, bbox.y * 480, bbox.w * 640, bbox.h * 480].map(
    (v) => Math.round(v * 100) / 100,
  );
  const moved = r < 0.9 ? px : px.map((v) => v + 3);
  return JSON.stringify({
    id: r < 0.95 ? 10 + (n % 500) : `a${n}`,
    bbox: moved,
    area: 1234.5,
    segmentation: [[1, 2, 3, 4, 5, 6]],
    extra: r < 0.85 ? { extra_field: { n } } : {},
  });
}

function items(): ExportItem[] {
  const next = lcgRandom(27);
  let boxId = 1;
  return Array.from({ length: 400 }, (_, i): ExportItem => {
    const media = {
      id: i + 1,
      folderId: 1,
      path: `/lib/cam-${i % 3}/${String(i).padStart(4, '0')}.jpg`,
      kind: 'image' as const,
      size: 1000 + i,
      mtimeMs: 1.7e12 + i,
      contentHash: `h${i}`,
      width: i % 7 === 0 ? null : 640,
      height: i % 7 === 0 ? null : 480,
      orientation: i % 11 === 0 ? 6 : 1,
      durationMs: null,
      fps: null,
      status: 'present' as const,
      errorCode: null,
      errorMessage: null,
      fileId: null,
    };
    const detections = Array.from({ length: Math.floor(next() * 12) }, (): DetectionRow => {
      const bbox = { x: next() * 1.1 - 0.05, y: next() - 0.02, w: next() * 0.4, h: next() * 0.3 };
      const r = next();
      const row: DetectionRow = {
        id: boxId,
        resultId: i + 1,
        frameIndex: 0,
        timeMs: null,
        label: ['person', 'car', 'dog', 'Straße "x"'][Math.floor(next() * 4)] as string,
        classId: null,
        score: r < 0.1 ? null : r < 0.15 ? 1 / 3 : next(),
        bbox,
        origin: 'model',
        review: 'pending',
      };
      const coco = keptCoco(next, bbox, boxId++);
      return { ...row, ...(coco ? { coco } : {}), ...(next() < 0.05 ? { crowd: true } : {}) };
    });
    const result = {
      id: i + 1,
      contentHash: `h${i}`,
      solution: 'objects',
      serviceUrl: 'embedded',
      analysedWidth: 512,
      analysedHeight: 384,
      model: 'centernet',
      boxCount: detections.length,
      createdAt: 0,
    };
    return { media, result, detections };
  });
}

const KNOWN: CocoKnown = {
  images: new Map([
    [3, { imageId: 9001, extra: { license: 2 } }],
    [4, { imageId: 'img-four', extra: {} }],
    [5, { imageId: 9001, extra: {} }],
  ]),
  dataset: {
    info: { description: 'kept', year: 2017 },
    licenses: [{ id: 2, name: 'CC' }],
    categories: [{ label: 'dog', id: 18, extra: { supercategory: 'animal' } }],
  },
  maxAnnotationId: 300,
};

describe('the COCO export, byte for byte', () => {
  it('writes what the writer wrote before it was made faster', async () => {
    const out = join(tmp.dir, 'export.json');
    const summary = await exportLibrary({
      items: items(),
      format: 'coco',
      out,
      classes: ['person', 'car'],
      imageRoot: '/lib',
      coco: KNOWN,
    });
    expect(summary.boxes).toBeGreaterThan(1500);
    const text = (await readFile(out, 'utf8')).replace(
      /"date_created":"[^"]*"/,
      '"date_created":""',
    );
    expect(text).toContain('"extra_field"');
    expect(text).toContain('"segmentation"');
    expect(createHash('sha256').update(text).digest('hex')).toBe(BEFORE);
  });
});
