/**
 * Crafted cases with values worked out by hand from COCO's published evaluation (pycocotools'
 * evaluateImg / accumulate); the reference must give them too, so both are checked.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../electron/core/evaluation/evaluate.js';
import { cocoReference } from '../../../support/coco-reference.js';
import { productImages, referenceInput, type CaseImage } from './eval-cases.js';

const A = { x: 0, y: 0, w: 0.5, h: 0.5 };
const FAR = { x: 0.6, y: 0.6, w: 0.3, h: 0.3 };

function both(images: CaseImage[], minScore = 0) {
  const got = evaluate(productImages(images), { minScore });
  const ref = referenceInput(images);
  const want = cocoReference(ref.imageIds, ref.truth, ref.detections, minScore);
  const pick = (c: {
    label: string;
    tp: number;
    fp: number;
    fn: number;
    precision: number;
    recall: number;
    ap50: number;
    ap: number;
  }) => ({
    label: c.label,
    tp: c.tp,
    fp: c.fp,
    fn: c.fn,
    precision: c.precision,
    recall: c.recall,
    ap50: c.ap50,
    ap: c.ap,
  });
  expect(got.classes.map(pick)).toEqual(want.classes.map(pick));
  expect([got.map50, got.map]).toEqual([want.map50, want.map]);
  return got;
}

/** Hand values, to 12 places: COCO's precision divides by tp + fp + 2^-52, so 1 comes out 1 - 2^-52. */
const approx = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, expect.closeTo(v, 12)]));

const cls = (r: ReturnType<typeof evaluate>, label: string) =>
  r.classes.find((c) => c.label === label)!;

describe('COCO behaviour on crafted cases', () => {
  it('a perfect answer scores 1 everywhere', () => {
    const r = both([{ truth: [['apple', A]], model: [['apple', 0.9, A]] }]);
    expect(cls(r, 'apple')).toMatchObject(
      approx({
        tp: 1,
        fp: 0,
        fn: 0,
        precision: 1,
        recall: 1,
        ap50: 1,
        ap: 1,
      }),
    );
    expect(r.map).toBeCloseTo(1, 12);
    // One right box is no evidence for a threshold.
    expect(r.calibration).toMatchObject([
      { label: 'apple', threshold: null, reason: 'too-little-evidence', boxes: 1 },
    ]);
  });

  it('proposes a class threshold once enough reviewed boxes back it', () => {
    const images: CaseImage[] = Array.from({ length: 100 }, (_, i) => ({
      truth: [['apple', A]],
      model: [
        ['apple', 0.5 + i / 400, A],
        ['apple', 0.2, FAR],
      ],
    }));
    const r = evaluate(productImages(images), { targetPrecision: 0.95 });
    // The 100 right boxes score 0.5 and up; the 100 wrong ones 0.2: the cut is at 0.5.
    expect(r.calibration[0]).toMatchObject({
      label: 'apple',
      threshold: 0.5,
      boxes: 100,
      precision: 1,
      reason: 'ok',
    });
  });

  it('a duplicate box is a false positive, yet a lower-scored duplicate leaves AP at 1', () => {
    const r = both([
      {
        truth: [['apple', A]],
        model: [
          ['apple', 0.9, A],
          ['apple', 0.8, A],
        ],
      },
    ]);
    expect(cls(r, 'apple')).toMatchObject(
      approx({
        tp: 1,
        fp: 1,
        fn: 0,
        precision: 0.5,
        recall: 1,
        ap50: 1,
        ap: 1,
      }),
    );
  });

  it('greedy by score: a loose higher-scored box takes the truth box at low IoU thresholds only', () => {
    // IoU 0.62: a true positive at 0.50, 0.55, 0.60; above that the exact box (0.8) takes it and
    // AP at those seven thresholds is 0.5 (precision 1/2 at full recall). AP = (3 + 7 × 0.5) / 10.
    const loose = { x: 0, y: 0, w: 0.5, h: 0.31 };
    const r = both([
      {
        truth: [['apple', A]],
        model: [
          ['apple', 0.9, loose],
          ['apple', 0.8, A],
        ],
      },
    ]);
    expect(cls(r, 'apple').ap50).toBeCloseTo(1, 12);
    expect(cls(r, 'apple').ap).toBeCloseTo(0.65, 12);
  });

  it('an IoU exactly at 0.5 is a match (COCO skips only overlaps below the threshold)', () => {
    const half = { x: 0, y: 0, w: 0.5, h: 0.25 };
    const r = both([{ truth: [['apple', A]], model: [['apple', 0.7, half]] }]);
    expect(cls(r, 'apple')).toMatchObject(approx({ tp: 1, fp: 0, ap50: 1, ap: 0.1 }));
  });

  it('equal scores keep image order (a stable sort): the false positive first costs half the AP', () => {
    // Sorted: FP (image 1) then TP (image 2): recall [0, .5], precision [0, .5] → envelope .5 at
    // recall 0…0.5 (51 of the 101 points). With the TP first it would be 51/101.
    const r = both([
      { truth: [['apple', A]], model: [['apple', 0.5, FAR]] },
      { truth: [['apple', A]], model: [['apple', 0.5, A]] },
    ]);
    expect(cls(r, 'apple').ap50).toBeCloseTo(25.5 / 101, 14);
  });

  it('a class the model never names has AP 0; one no person drew is left out of the mean (-1)', () => {
    const r = both([
      {
        truth: [
          ['apple', A],
          ['cat', FAR],
        ],
        model: [
          ['apple', 0.9, A],
          ['dog', 0.6, FAR],
        ],
      },
    ]);
    expect(cls(r, 'cat')).toMatchObject(
      approx({
        tp: 0,
        fp: 0,
        fn: 1,
        precision: -1,
        recall: 0,
        ap50: 0,
        ap: 0,
      }),
    );
    expect(cls(r, 'dog')).toMatchObject(
      approx({
        tp: 0,
        fp: 1,
        fn: 0,
        precision: 0,
        recall: -1,
        ap50: -1,
        ap: -1,
      }),
    );
    expect(r.map50).toBeCloseTo(0.5, 12);
    expect(r.map).toBeCloseTo(0.5, 12);
  });

  it('no reviewed truth and no boxes at all: no classes and mAP -1', () => {
    const r = both([{ truth: [], model: [] }]);
    expect(r).toMatchObject({ reviewedFiles: 1, classes: [], map50: -1, map: -1 });
  });

  it('only the 100 highest-scoring boxes of an image and class take part', () => {
    const strays = Array.from(
      { length: 100 },
      (_, i) => ['apple', 0.9 - i * 0.001, FAR] as [string, number, typeof A],
    );
    const r = both([{ truth: [['apple', A]], model: [...strays, ['apple', 0.1, A]] }]);
    expect(cls(r, 'apple')).toMatchObject(approx({ tp: 0, fp: 100, fn: 1, ap50: 0 }));
  });

  it('the minimum score drops boxes from the counts and the confusion table, not from AP', () => {
    const r = both(
      [
        {
          truth: [['apple', A]],
          model: [
            ['apple', 0.2, A],
            ['apple', 0.1, FAR],
          ],
        },
      ],
      0.5,
    );
    expect(cls(r, 'apple')).toMatchObject(
      approx({
        tp: 0,
        fp: 0,
        fn: 1,
        precision: -1,
        recall: 0,
        ap50: 1,
      }),
    );
    expect(r.mistakeTotals).toEqual({ confusion: 0, 'false-positive': 0, miss: 1 });
  });
});

describe('confusions and mistakes', () => {
  it('a box named the wrong class is one confusion (a miss for one class, a false positive for the other)', () => {
    const r = evaluate(
      productImages([
        {
          truth: [
            ['apple', A],
            ['person', FAR],
          ],
          model: [
            ['orange', 0.8, A],
            ['person', 0.9, FAR],
            ['person', 0.4, { x: 0.1, y: 0.7, w: 0.1, h: 0.1 }],
          ],
        },
      ]),
    );
    expect(cls(r, 'apple')).toMatchObject(approx({ tp: 0, fn: 1 }));
    expect(cls(r, 'orange')).toMatchObject(approx({ fp: 1 }));
    expect(r.confusion.labels).toEqual(['apple', 'orange', 'person']);
    // Rows: truth apple, orange, person, nothing; columns: model apple, orange, person, nothing.
    expect(r.confusion.counts).toEqual([
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 1, 0],
    ]);
    expect(r.mistakes.map((m) => [m.kind, m.truthLabel, m.modelLabel, m.boxKey])).toEqual([
      ['confusion', 'apple', 'orange', 'd0'],
      ['false-positive', null, 'person', 'd2'],
    ]);
  });

  it('a drawn box no model box found is a miss that opens on the drawn box', () => {
    const r = evaluate(productImages([{ truth: [['cat', A]], model: [] }]));
    expect(r.mistakes).toEqual([
      {
        kind: 'miss',
        mediaId: 1,
        path: '/lib/1.jpg',
        frameIndex: 0,
        boxKey: 't0',
        truthLabel: 'cat',
        modelLabel: null,
        score: null,
        bbox: A,
      },
    ]);
    expect(r.confusion.counts).toEqual([
      [0, 1],
      [0, 0],
    ]);
  });

  it('lists the most confident false positives first, at most the limit, and counts them all', () => {
    const model = [0.3, 0.9, 0.6].map((s) => ['dog', s, FAR] as [string, number, typeof A]);
    const r = evaluate(productImages([{ truth: [], model }]), { mistakeLimit: 2 });
    expect(r.mistakes.map((m) => m.score)).toEqual([0.9, 0.6]);
    expect(r.mistakeTotals['false-positive']).toBe(3);
  });
});
