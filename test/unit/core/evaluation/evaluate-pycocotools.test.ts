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
import type {
  EvalImage,
  EvaluationReport,
} from '../../../../electron/core/evaluation/evaluation-types.js';

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

/**
 * The second dataset (instances-areas.json, results-areas.json, printed by the same run as
 * "areas"): boxes near the ranges' bounds, truth whose `area` is 0.4, 0.7 or 1.0 of its box, and
 * 12-16 model boxes of a class per image (AR at 10 boxes differs from AR at 100).
 */
const PYCOCOTOOLS_AREAS = {
  stats: [
    0.1970586710220887, 0.5318692895398274, 0.04981041185617311, 0.23627008054198492,
    0.2205682057045246, 0.11061587314369277, 0.05195833333333333, 0.3031875, 0.3317083333333333,
    0.3252262443438914, 0.3486737400530504, 0.28095238095238095,
  ],
  classes: {
    person: {
      all: { ap: 0.20477697199608064, ar: [0.04791666666666668, 0.284375, 0.33541666666666664] },
      small: {
        ap: 0.24133171460907027,
        ar: [0.03461538461538462, 0.2653846153846154, 0.3269230769230769],
      },
      medium: {
        ap: 0.20882007292874444,
        ar: [0.06034482758620689, 0.29310344827586204, 0.33965517241379306],
      },
      large: {
        ap: 0.14852036800670032,
        ar: [0.016666666666666666, 0.2833333333333333, 0.3333333333333333],
      },
    },
    car: {
      all: {
        ap: 0.18934037004809676,
        ar: [0.055999999999999994, 0.32199999999999995, 0.32799999999999996],
      },
      small: {
        ap: 0.23120844647489963,
        ar: [0.023529411764705882, 0.3235294117647059, 0.3235294117647059],
      },
      medium: {
        ap: 0.2323163384803048,
        ar: [0.07692307692307693, 0.34615384615384615, 0.3576923076923077],
      },
      large: {
        ap: 0.0727113782806852,
        ar: [0.05714285714285714, 0.22857142857142856, 0.22857142857142856],
      },
    },
  },
};

/** The dataset as the library would hand it over: boxes normalised to each image, in id order. */
function images(instances = 'instances.json', detections = 'results.json'): EvalImage[] {
  const read = <T>(name: string) => JSON.parse(readFileSync(join(HERE, name), 'utf8')) as T;
  const gt = read<{
    images: CocoImage[];
    annotations: CocoAnnotation[];
    categories: { id: number; name: string }[];
  }>(instances);
  const results = read<CocoResult[]>(detections);
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
  const report = evaluate(images(), { coco: true });

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

  summaryMatches(report, PYCOCOTOOLS);
});

describe('evaluation against pycocotools, by area range (truth areas other than their boxes)', () => {
  summaryMatches(
    evaluate(images('instances-areas.json', 'results-areas.json'), { coco: true }),
    PYCOCOTOOLS_AREAS,
  );
});

type RangeWant = { ap: number; ar: number[] };
interface SummaryWant {
  stats: number[];
  classes: Record<string, Record<'all' | 'small' | 'medium' | 'large', RangeWant>>;
}

function summaryMatches(report: EvaluationReport, want: SummaryWant): void {
  const coco = report.coco;
  if (!coco) throw new Error('the COCO summary was asked for');
  it('gives COCOeval’s twelve summary figures (AP by IoU and area range, AR by maxDets and area range)', () => {
    expect(coco.stats).toHaveLength(12);
    coco.stats.forEach((v, i) => {
      expect(v, `stats[${i}]`).toBeCloseTo(want.stats[i] as number, 12);
    });
  });

  it('gives COCOeval’s AP and AR per class on each area range (all, small, medium, large)', () => {
    for (const { label, ranges } of coco.classes) {
      const w = want.classes[label];
      expect(w, label).toBeDefined();
      if (!w) continue;
      for (const range of ['all', 'small', 'medium', 'large'] as const) {
        expect(ranges[range].ap, `${label} ${range} AP`).toBeCloseTo(w[range].ap, 12);
        ranges[range].ar.forEach((v, m) => {
          expect(v, `${label} ${range} AR${[1, 10, 100][m]}`).toBeCloseTo(
            w[range].ar[m] as number,
            12,
          );
        });
      }
    }
    expect(coco.classes.map((c) => c.label).sort()).toEqual(Object.keys(want.classes).sort());
  });
}
