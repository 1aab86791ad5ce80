/**
 * The model measured against what people reviewed: per class true positives, false positives and
 * misses at IoU 0.5 and a minimum score, COCO's AP50 and AP (IoU 0.50:0.95), a precision–recall
 * curve, the confusion table and the mistakes. Pure: reads images one at a time, keeps per class
 * only a score and a match mask per model box.
 */
import { classPrecision } from './average-precision.js';
import { classThreshold } from './calibrate.js';
import { CocoSummaryTally } from './coco-summary.js';
import { pairConfusions } from './confusions.js';
import type {
  ClassQuality,
  ConfusionTable,
  EvalImage,
  EvaluationOptions,
  EvaluationReport,
  Mistake,
  ModelBox,
  TruthBox,
} from './evaluation-types.js';
import { rankOf } from './evaluation-types.js';
import { imageOutcome, passes } from './image-outcome.js';
import { MistakeList } from './mistake-list.js';

interface ClassTally {
  /** Ranks (scores; a box without one: -Infinity, last). */
  scores: number[];
  masks: number[];
  /** Per box, the thresholds at which it fell in a crowd region (COCO's ignored detections). */
  ignored: number[];
  truth: number;
  tp: number;
  fp: number;
}

const ratio = (n: number, d: number) => (d > 0 ? n / d : -1);

/** Mean of the defined values (≥ 0), -1 when none is: COCO's mean over classes with truth. */
function meanDefined(values: readonly number[]): number {
  const defined = values.filter((v) => v >= 0);
  return defined.length ? defined.reduce((s, v) => s + v, 0) / defined.length : -1;
}

function mistakeOf(
  image: EvalImage,
  kind: Mistake['kind'],
  truth: TruthBox | null,
  model: ModelBox | null,
): Mistake {
  const box = (model ?? truth) as ModelBox | TruthBox;
  return {
    kind,
    mediaId: image.mediaId,
    path: image.path,
    frameIndex: image.frameIndex,
    boxKey: box.key,
    truthLabel: truth?.label ?? null,
    modelLabel: model?.label ?? null,
    score: model?.score ?? null,
    bbox: box.bbox,
  };
}

class ConfusionCounter {
  private readonly cells = new Map<string, number>();
  add(truth: string, model: string, n = 1): void {
    const k = `${truth}\u0000${model}`;
    this.cells.set(k, (this.cells.get(k) ?? 0) + n);
  }
  table(labels: string[]): ConfusionTable {
    const axis = [...labels, ''];
    return {
      labels,
      counts: axis.map((t) => axis.map((m) => this.cells.get(`${t}\u0000${m}`) ?? 0)),
    };
  }
}

/** Reorders a class's boxes by rank, highest first, as `classPrecision` sorts them (stable). */
function inScoreOrder(t: ClassTally): void {
  const { scores, masks, ignored } = t;
  const order = scores
    .map((_, i) => i)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number));
  t.scores = order.map((i) => scores[i] as number);
  t.masks = order.map((i) => masks[i] as number);
  t.ignored = order.map((i) => ignored[i] as number);
}

export function evaluate(
  images: Iterable<EvalImage>,
  options: EvaluationOptions = {},
): EvaluationReport {
  const minScore = options.minScore ?? 0;
  const tallies = new Map<string, ClassTally>();
  const confusion = new ConfusionCounter();
  const mistakes = new MistakeList(options.mistakeLimit ?? 200);
  const files = new Set<number>();
  const coco = options.coco ? new CocoSummaryTally() : undefined;
  let imageCount = 0;
  for (const image of images) {
    files.add(image.mediaId);
    imageCount++;
    const outcome = imageOutcome(image, minScore);
    for (const c of outcome.classes) {
      let t = tallies.get(c.label);
      if (!t)
        tallies.set(c.label, (t = { scores: [], masks: [], ignored: [], truth: 0, tp: 0, fp: 0 }));
      t.truth += c.truthCount;
      coco?.add(image, c.label, c.truth, c.model, c);
      // A loop, not forEach: a closure call per box, six million of them at 60 boxes per image.
      for (let d = 0; d < c.model.length; d++) {
        const m = c.model[d] as ModelBox;
        const mask = c.masks[d] as number;
        const ignored = c.ignored[d] as number;
        t.scores.push(rankOf(m));
        t.masks.push(mask);
        t.ignored.push(ignored);
        if (!passes(m, minScore) || ignored & 1) continue;
        if (mask & 1) t.tp++;
        else t.fp++;
      }
    }
    const found = pairConfusions(outcome.unfoundTruth, outcome.unmatchedModel);
    for (const p of found.pairs) {
      confusion.add(p.truth.label, p.model.label);
      mistakes.add(mistakeOf(image, 'confusion', p.truth, p.model));
    }
    for (const t of found.misses) {
      confusion.add(t.label, '');
      mistakes.add(mistakeOf(image, 'miss', t, null));
    }
    for (const m of found.falsePositives) {
      confusion.add('', m.label);
      mistakes.add(mistakeOf(image, 'false-positive', null, m));
    }
  }
  const labels = [...tallies.keys()].sort();
  // Each class's boxes in score order once: the precision and the calibration then sort an
  // already sorted list (linear), not the whole class twice. Stable, so ties keep image order.
  for (const t of tallies.values()) inScoreOrder(t);
  const classes = labels.map((label): ClassQuality => {
    const t = tallies.get(label) as ClassTally;
    confusion.add(label, label, t.tp);
    const { apByThreshold, curve } = classPrecision(t.scores, t.masks, t.truth, t.ignored);
    return {
      label,
      tp: t.tp,
      fp: t.fp,
      fn: t.truth - t.tp,
      precision: ratio(t.tp, t.tp + t.fp),
      recall: ratio(t.tp, t.truth),
      ap50: apByThreshold[0] as number,
      ap: t.truth > 0 ? meanDefined(apByThreshold) : -1,
      curve,
    };
  });
  return {
    reviewedFiles: files.size,
    images: imageCount,
    classes,
    map50: meanDefined(classes.map((c) => c.ap50)),
    map: meanDefined(classes.map((c) => c.ap)),
    confusion: confusion.table(labels),
    mistakes: mistakes.list(),
    mistakeTotals: mistakes.totals,
    calibration: labels.map((label) => {
      const t = tallies.get(label) as ClassTally;
      // A threshold can only cut boxes with a score, counted at IoU 0.5 (crowd ones are no evidence).
      const hits: boolean[] = [];
      const scores: number[] = [];
      t.scores.forEach((s, i) => {
        if (!Number.isFinite(s) || (t.ignored[i] as number) & 1) return;
        hits.push(((t.masks[i] as number) & 1) === 1);
        scores.push(s);
      });
      return classThreshold(label, scores, hits, options.targetPrecision ?? 0.95);
    }),
    ...(coco ? { coco: coco.summary() } : {}),
  };
}
