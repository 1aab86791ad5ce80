/**
 * Crowd regions (COCO's `iscrowd`) and model boxes without a score, with values worked out by
 * hand from COCO's published rules (pycocotools' evaluateImg / accumulate): a crowd region is no
 * object to find; a model box that found no ordinary box but lies in a crowd region (intersection
 * over the model box's own area ≥ the threshold) is neither right nor wrong, at that threshold.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../electron/core/evaluation/evaluate.js';
import type {
  EvalImage,
  ModelBox,
  TruthBox,
} from '../../../../electron/core/evaluation/evaluation-types.js';

const PERSON = { x: 0, y: 0, w: 0.5, h: 0.5 };
const PERSON_CROWD = { x: 0.5, y: 0.5, w: 0.5, h: 0.5 };
/** Nothing there. */
const EMPTY = { x: 0, y: 0.6, w: 0.3, h: 0.3 };
/** Half inside the crowd region (0.02 of its 0.04): ignored at IoU 0.5 only. */
const HALF_IN_CROWD = { x: 0.4, y: 0.6, w: 0.2, h: 0.2 };
const IN_CROWD = { x: 0.55, y: 0.55, w: 0.1, h: 0.1 };
const PERSON_2 = { x: 0.1, y: 0.1, w: 0.3, h: 0.3 };
const DOG = { x: 0.6, y: 0.6, w: 0.3, h: 0.3 };
const CHAIRS = { x: 0, y: 0.5, w: 0.5, h: 0.5 };

const truth = (key: string, label: string, bbox: TruthBox['bbox'], crowd = false): TruthBox => ({
  key,
  label,
  bbox,
  crowd,
});
const model = (key: string, label: string, score: number | null, bbox: ModelBox['bbox']) => ({
  key,
  label,
  score,
  bbox,
});

function images(): EvalImage[] {
  return [
    {
      mediaId: 1,
      path: '/lib/1.jpg',
      frameIndex: 0,
      truth: [
        truth('t1', 'person', PERSON),
        truth('t2', 'person', PERSON_CROWD, true),
        truth('t3', 'chair', CHAIRS, true),
      ],
      model: [
        model('d1', 'person', 0.9, PERSON),
        model('d2', 'person', 0.87, HALF_IN_CROWD),
        model('d3', 'person', 0.85, EMPTY),
        model('d4', 'person', 0.6, IN_CROWD),
        model('d5', 'chair', 0.5, { x: 0.1, y: 0.6, w: 0.2, h: 0.2 }),
      ],
    },
    {
      mediaId: 2,
      path: '/lib/2.jpg',
      frameIndex: 0,
      truth: [truth('t4', 'person', PERSON_2), truth('t5', 'dog', DOG)],
      // Ties with d3 of the first image: COCO's stable sort keeps image order, d3 first.
      model: [model('d6', 'person', 0.85, PERSON_2)],
    },
  ];
}

const cls = (r: ReturnType<typeof evaluate>, label: string) =>
  r.classes.find((c) => c.label === label)!;

// person at IoU 0.5: 0.9 TP, 0.87 ignored, 0.85 FP, 0.85 TP, 0.6 ignored; 2 to find.
// Recall .5 .5 1, precision 1 .5 .667 → envelope 1 .667 .667: 51 points at 1, 50 at 2/3.
const PERSON_AP50 = (51 + (50 * 2) / 3) / 101;
// IoU 0.55 to 0.95: the half-inside box is a false positive at 0.87: recall .5 .5 .5 1,
// precision 1 .5 .333 .5 → envelope 1 .5 .5 .5: 51 points at 1, 50 at 1/2.
const PERSON_AP_HIGH = (51 + 50 / 2) / 101;
const PERSON_AP = (PERSON_AP50 + 9 * PERSON_AP_HIGH) / 10;

describe('crowd regions, as COCO evaluates them', () => {
  it('counts a crowd region as nothing to find and boxes in it as neither right nor wrong', () => {
    const r = evaluate(images());
    expect(cls(r, 'person')).toMatchObject({ tp: 2, fp: 1, fn: 0, recall: 1 });
    expect(cls(r, 'person').precision).toBeCloseTo(2 / 3, 12);
    expect(cls(r, 'person').ap50).toBeCloseTo(PERSON_AP50, 12);
    expect(cls(r, 'person').ap).toBeCloseTo(PERSON_AP, 12);
    // A class with a crowd region only has nothing to find: left out of the means, as in COCO.
    expect(cls(r, 'chair')).toMatchObject({ tp: 0, fp: 0, fn: 0, ap50: -1, ap: -1 });
    // A class without a detection: AP 0, one miss.
    expect(cls(r, 'dog')).toMatchObject({ tp: 0, fp: 0, fn: 1, ap50: 0, ap: 0, recall: 0 });
    expect(r.map50).toBeCloseTo(PERSON_AP50 / 2, 12);
    expect(r.map).toBeCloseTo(PERSON_AP / 2, 12);
    expect(r.mistakeTotals).toEqual({ 'false-positive': 1, miss: 1, confusion: 0 });
    expect(r.mistakes.map((m) => m.boxKey).sort()).toEqual(['d3', 't5']);
  });

  it('prefers an ordinary box to a crowd region it overlaps more', () => {
    const r = evaluate([
      {
        mediaId: 1,
        path: '/lib/1.jpg',
        frameIndex: 0,
        truth: [
          truth('c', 'person', { x: 0, y: 0, w: 1, h: 1 }, true),
          truth('t', 'person', { x: 0, y: 0, w: 0.5, h: 0.6 }),
        ],
        // IoU 0.833 with the ordinary box, 1 with the crowd: the ordinary box wins.
        model: [model('d', 'person', 0.9, PERSON)],
      },
    ]);
    expect(cls(r, 'person')).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });
});

describe('model boxes without a score', () => {
  it('ranks them after every scored box and keeps them past the minimum score', () => {
    const image = (score: number | null): EvalImage => ({
      mediaId: 1,
      path: '/lib/1.jpg',
      frameIndex: 0,
      truth: [truth('t', 'person', PERSON)],
      model: [model('a', 'person', score, PERSON), model('b', 'person', 0.1, EMPTY)],
    });
    // Scoreless and right, after a wrong 0.1: precision 1/2 at recall 1 → AP 1/2.
    const r = evaluate([image(null)], { minScore: 0.5 });
    expect(cls(r, 'person')).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(cls(r, 'person').ap50).toBeCloseTo(0.5, 12);
    // No threshold is proposed from a box a threshold cannot cut.
    expect(r.calibration[0]).toMatchObject({ boxes: 1 });
    const scored = evaluate([image(0.9)], { minScore: 0.5 });
    expect(cls(scored, 'person').ap50).toBeCloseTo(1, 12);
  });
});
