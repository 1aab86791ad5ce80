/**
 * One image's boxes matched class by class (COCO's way), and what is left over at IoU 0.5 and the
 * minimum score: the truth boxes no model box found and the model boxes that found nothing.
 */
import { MAX_BOXES_PER_IMAGE } from './coco-thresholds.js';
import type { EvalImage, ModelBox, TruthBox } from './evaluation-types.js';
import { matchInClass } from './match-in-class.js';

export interface ClassOutcome {
  label: string;
  truthCount: number;
  /** The class's model boxes taken part (score order, at most MAX_BOXES_PER_IMAGE). */
  model: ModelBox[];
  masks: Uint16Array;
}

export interface ImageOutcome {
  classes: ClassOutcome[];
  unfoundTruth: TruthBox[];
  /** In score order, highest first. */
  unmatchedModel: ModelBox[];
}

type Groups = Map<string, { truth: TruthBox[]; model: ModelBox[] }>;

function groupOf(groups: Groups, label: string) {
  let g = groups.get(label);
  if (!g) groups.set(label, (g = { truth: [], model: [] }));
  return g;
}

export function imageOutcome(image: EvalImage, minScore: number): ImageOutcome {
  const groups: Groups = new Map();
  for (const t of image.truth) groupOf(groups, t.label).truth.push(t);
  for (const m of image.model) groupOf(groups, m.label).model.push(m);
  const classes: ClassOutcome[] = [];
  const unfoundTruth: TruthBox[] = [];
  const unmatchedModel: ModelBox[] = [];
  for (const [label, { truth, model: all }] of groups) {
    // Array.prototype.sort is stable: equal scores keep the order the model gave them.
    const model = all.sort((a, b) => b.score - a.score).slice(0, MAX_BOXES_PER_IMAGE);
    const { masks, truthAt50 } = matchInClass(
      truth.map((t) => t.bbox),
      model.map((m) => m.bbox),
    );
    classes.push({ label, truthCount: truth.length, model, masks });
    const found = new Uint8Array(truth.length);
    model.forEach((m, d) => {
      if (m.score < minScore) return;
      const g = truthAt50[d] as number;
      if (g >= 0) found[g] = 1;
      else unmatchedModel.push(m);
    });
    truth.forEach((t, g) => {
      if (!found[g]) unfoundTruth.push(t);
    });
  }
  unmatchedModel.sort((a, b) => b.score - a.score);
  return { classes, unfoundTruth, unmatchedModel };
}
