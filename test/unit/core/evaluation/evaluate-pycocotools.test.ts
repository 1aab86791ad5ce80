/**
 * Our evaluation against pycocotools itself, on a COCO-shaped dataset (coco-crosscheck/: photos
 * of COCO's sizes, COCO's category ids with gaps, crowd regions with detections in them, small,
 * medium and large boxes, tied scores within and across images, a class never found, a class
 * never there, an image with no truth).
 *
 * The expected numbers were produced by pycocotools 2.0.11 (COCOeval, iouType "bbox", area
 * "all", maxDets 100) running coco-crosscheck/make-reference.py, which also wrote the two JSON
 * files; they are frozen here as it printed them. tp/fp/fn are COCOeval's own per-image matches
 * at IoU 0.5 (dtMatches/dtIgnore/gtIgnore). LabelDesk has no area ranges, so only "all" is
 * compared (the script prints the small/medium/large figures too).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../electron/core/evaluation/evaluate.js';
import type { EvalImage } from '../../../../electron/core/evaluation/evaluation-types.js';

const HERE = join(import.meta.dirname, 'coco-crosscheck');

interface CocoImage {
  id: number;
  file_name: string;
  width: number;
  height: number;
}
interface CocoAnnotation {
  id: number;
  image_id: number;
  category_id: number;
  bbox: [number, number, number, number];
  iscrowd: 0 | 1;
}
interface CocoResult {
  image_id: number;
  category_id: number;
  bbox: [number, number, number, number];
  score: number;
}

/** Printed by make-reference.py (pycocotools 2.0.11). */
const PYCOCOTOOLS = {
  map: 0.20490854602859548,
  map50: 0.34900579343648647,
  classes: {
    person: { tp: 15, fp: 12, fn: 5, ap50: 0.43014301430143015, ap: 0.24466197810257218 },
    car: { tp: 4, fp: 10, fn: 2, ap50: 0.3822167931078821, ap: 0.2045266614573545 },
    dog: { tp: 0, fp: 12, fn: 0, ap50: -1.0, ap: -1.0 },
    bottle: { tp: 0, fp: 0, fn: 9, ap50: 0.0, ap: 0.0 },
    chair: { tp: 11, fp: 7, fn: 4, ap50: 0.5836633663366337, ap: 0.3704455445544555 },
  },
};

/** The dataset as the library would hand it over: boxes normalised to each image, in id order. */
function images(): EvalImage[] {
  const read = <T>(name: string) => JSON.parse(readFileSync(join(HERE, name), 'utf8')) as T;
  const gt = read<{
    images: CocoImage[];
    annotations: CocoAnnotation[];
    categories: { id: number; name: string }[];
  }>('instances.json');
  const results = read<CocoResult[]>('results.json');
  const names = new Map(gt.categories.map((c) => [c.id, c.name]));
  const norm = (img: CocoImage, [x, y, w, h]: number[]) => ({
    x: (x as number) / img.width,
    y: (y as number) / img.height,
    w: (w as number) / img.width,
    h: (h as number) / img.height,
  });
  return [...gt.images]
    .sort((a, b) => a.id - b.id)
    .map((img) => ({
      mediaId: img.id,
      path: `/coco/${img.file_name}`,
      frameIndex: 0,
      truth: gt.annotations
        .filter((a) => a.image_id === img.id)
        .map((a) => ({
          key: `a${a.id}`,
          label: names.get(a.category_id) as string,
          bbox: norm(img, a.bbox),
          crowd: a.iscrowd === 1,
        })),
      model: results
        .filter((r) => r.image_id === img.id)
        .map((r, k) => ({
          key: `d${img.id}-${k}`,
          label: names.get(r.category_id) as string,
          score: r.score,
          bbox: norm(img, r.bbox),
        })),
    }));
}

describe('evaluation against pycocotools', () => {
  const report = evaluate(images());

  it('gives COCOeval’s AP50 and AP per class, and its counts at IoU 0.5', () => {
    const got = Object.fromEntries(
      report.classes.map((c) => [
        c.label,
        { tp: c.tp, fp: c.fp, fn: c.fn, ap50: c.ap50, ap: c.ap },
      ]),
    );
    expect(Object.keys(got).sort()).toEqual(Object.keys(PYCOCOTOOLS.classes).sort());
    for (const [label, want] of Object.entries(PYCOCOTOOLS.classes)) {
      const c = got[label];
      expect({ label, tp: c?.tp, fp: c?.fp, fn: c?.fn }).toEqual({
        label,
        tp: want.tp,
        fp: want.fp,
        fn: want.fn,
      });
      // COCO divides by tp + fp + 2^-52: the last digits differ by that, nothing more.
      expect(c?.ap50, `${label} AP50`).toBeCloseTo(want.ap50, 12);
      expect(c?.ap, `${label} AP`).toBeCloseTo(want.ap, 12);
    }
  });

  it('gives COCOeval’s mAP50 and mAP (stats[1], stats[0])', () => {
    expect(report.map50).toBeCloseTo(PYCOCOTOOLS.map50, 12);
    expect(report.map).toBeCloseTo(PYCOCOTOOLS.map, 12);
  });
});
