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
import { PYCOCOTOOLS, PYCOCOTOOLS_AREAS } from './coco-crosscheck/pycocotools-figures.js';

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
