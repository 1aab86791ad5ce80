/**
 * Our evaluation against pycocotools itself, on a COCO-shaped dataset (coco-crosscheck/: photos
 * of COCO's sizes, COCO's category ids with gaps, crowd regions with detections in them, small,
 * medium and large boxes, tied scores within and across images, a class never found, a class
 * never there, an image with no truth).
 *
 * The expected numbers were produced by pycocotools 2.0.11 (COCOeval, iouType "bbox") running
 * coco-crosscheck/make-reference.py, which also wrote the two JSON files; they are frozen here as
 * it printed them (run by hand: `PYTHONPATH=/tmp/pcc/lib python3 make-reference.py`, see the
 * script's header for installing pycocotools). tp/fp/fn are COCOeval's own per-image matches at
 * IoU 0.5 (dtMatches/dtIgnore/gtIgnore), area "all", maxDets 100. `stats` is COCOeval.stats (the
 * twelve figures summarize() prints), and per class AP by area range (maxDets 100) and AR by area
 * range at maxDets 1, 10 and 100 come from its eval["precision"] and eval["recall"]. The truth's
 * `area` in instances.json is 0.7 of its box (as a segmentation's would be): COCO ranges truth by
 * that field and model boxes by their box, and so must we.
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
  area: number;
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
  stats: [
    0.20490854602859548, 0.34900579343648647, 0.17823963257131573, 0.19166666666666665,
    0.2839356435643564, 0.22247524752475245, 0.1675, 0.36458333333333337, 0.36458333333333337,
    0.2616666666666666, 0.3458333333333333, 0.4041666666666667,
  ],
  classes: {
    person: {
      tp: 15,
      fp: 12,
      fn: 5,
      ap50: 0.43014301430143015,
      ap: 0.24466197810257218,
      all: { ap: 0.24466197810257218, ar: [0.2, 0.525, 0.525] },
      small: { ap: 0.4003300330033003, ar: [0.18, 0.6799999999999999, 0.6799999999999999] },
      medium: {
        ap: 0.2575247524752475,
        ar: [0.11666666666666665, 0.3833333333333333, 0.3833333333333333],
      },
      large: {
        ap: 0.2887128712871287,
        ar: [0.2666666666666667, 0.5333333333333332, 0.5333333333333332],
      },
    },
    car: {
      tp: 4,
      fp: 10,
      fn: 2,
      ap50: 0.3822167931078821,
      ap: 0.2045266614573545,
      all: { ap: 0.2045266614573545, ar: [0.25, 0.4333333333333333, 0.4333333333333333] },
      small: { ap: 0.0, ar: [0.0, 0.0, 0.0] },
      medium: { ap: 0.37623762376237624, ar: [0.5, 0.5, 0.5] },
      large: {
        ap: 0.2671617161716171,
        ar: [0.16666666666666666, 0.5333333333333333, 0.5333333333333333],
      },
    },
    dog: {
      tp: 0,
      fp: 12,
      fn: 0,
      ap50: -1.0,
      ap: -1.0,
      all: { ap: -1.0, ar: [-1.0, -1.0, -1.0] },
      small: { ap: -1.0, ar: [-1.0, -1.0, -1.0] },
      medium: { ap: -1.0, ar: [-1.0, -1.0, -1.0] },
      large: { ap: -1.0, ar: [-1.0, -1.0, -1.0] },
    },
    bottle: {
      tp: 0,
      fp: 0,
      fn: 9,
      ap50: 0.0,
      ap: 0.0,
      all: { ap: 0.0, ar: [0.0, 0.0, 0.0] },
      small: { ap: 0.0, ar: [0.0, 0.0, 0.0] },
      medium: { ap: 0.0, ar: [0.0, 0.0, 0.0] },
      large: { ap: 0.0, ar: [0.0, 0.0, 0.0] },
    },
    chair: {
      tp: 11,
      fp: 7,
      fn: 4,
      ap50: 0.5836633663366337,
      ap: 0.3704455445544555,
      all: {
        ap: 0.3704455445544555,
        ar: [0.22000000000000003, 0.4999999999999999, 0.4999999999999999],
      },
      small: {
        ap: 0.36633663366336633,
        ar: [0.36666666666666664, 0.36666666666666664, 0.36666666666666664],
      },
      medium: { ap: 0.501980198019802, ar: [0.175, 0.5, 0.5] },
      large: { ap: 0.33402640264026395, ar: [0.1875, 0.55, 0.55] },
    },
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
      width: img.width,
      height: img.height,
      truth: gt.annotations
        .filter((a) => a.image_id === img.id)
        .map((a) => ({
          key: `a${a.id}`,
          label: names.get(a.category_id) as string,
          bbox: norm(img, a.bbox),
          crowd: a.iscrowd === 1,
          area: a.area,
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

  it('gives COCOeval’s twelve summary figures (AP by IoU and area range, AR by maxDets and area range)', () => {
    expect(report.coco.stats).toHaveLength(12);
    report.coco.stats.forEach((v, i) => {
      expect(v, `stats[${i}]`).toBeCloseTo(PYCOCOTOOLS.stats[i] as number, 12);
    });
  });

  it('gives COCOeval’s AP and AR per class on each area range (all, small, medium, large)', () => {
    for (const { label, ranges } of report.coco.classes) {
      const want = PYCOCOTOOLS.classes[label as keyof typeof PYCOCOTOOLS.classes];
      for (const range of ['all', 'small', 'medium', 'large'] as const) {
        expect(ranges[range].ap, `${label} ${range} AP`).toBeCloseTo(want[range].ap, 12);
        ranges[range].ar.forEach((v, m) => {
          expect(v, `${label} ${range} AR${[1, 10, 100][m]}`).toBeCloseTo(
            want[range].ar[m] as number,
            12,
          );
        });
      }
    }
    expect(report.coco.classes.map((c) => c.label).sort()).toEqual(
      Object.keys(PYCOCOTOOLS.classes).sort(),
    );
  });
});
