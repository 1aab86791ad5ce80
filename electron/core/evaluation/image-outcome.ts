/**
 * One image's boxes matched class by class (COCO's way), and what is left over at IoU 0.5 and the
 * minimum score: the truth boxes no model box found and the model boxes that found nothing.
 * Crowd regions are no object to find (never missed), and a model box in one is no mistake.
 * A model box without a score ranks below every scored one and passes the minimum score.
 */
import { MAX_BOXES_PER_IMAGE } from './coco-thresholds.js';
import { rankOf, type EvalImage, type ModelBox, type TruthBox } from './evaluation-types.js';
import { matchInClass } from './match-in-class.js';

export interface ClassOutcome {
  label: string;
  /** The class's truth boxes in the image, crowd regions included. */
  truth: TruthBox[];
  /** Truth boxes to find: crowd regions are not counted. */
  truthCount: number;
  /** The class's model boxes taken part (score order, at most MAX_BOXES_PER_IMAGE). */
  model: ModelBox[];
  masks: Uint16Array;
  /** Per model box, the thresholds (bits) at which it fell in a crowd region: not counted. */
  ignored: Uint16Array;
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

/** Which truth boxes were found, reused from class to class (cleared for each). */
let found = new Uint8Array(64);
function foundScratch(n: number): Uint8Array {
  if (found.length < n) found = new Uint8Array(n * 2);
  found.fill(0, 0, n);
  return found;
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
    // Plain loops and no copy when nothing is cut: this runs per class of every image.
    if (all.length > 1) all.sort((a, b) => rankOf(b) - rankOf(a));
    const model = all.length > MAX_BOXES_PER_IMAGE ? all.slice(0, MAX_BOXES_PER_IMAGE) : all;
    const boxes: ModelBox['bbox'][] = [];
    for (const m of model) boxes.push(m.bbox);
    const { masks, ignored, truthAt50 } = matchInClass(truth, boxes);
    let truthCount = 0;
    for (const t of truth) if (!t.crowd) truthCount++;
    classes.push({ label, truth, truthCount, model, masks, ignored });
    const found = foundScratch(truth.length);
    for (let d = 0; d < model.length; d++) {
      const m = model[d] as ModelBox;
      if (!passes(m, minScore) || (ignored[d] as number) & 1) continue;
      const g = truthAt50[d] as number;
      if (g >= 0) found[g] = 1;
      else unmatchedModel.push(m);
    }
    for (let g = 0; g < truth.length; g++) {
      const t = truth[g] as TruthBox;
      if (!found[g] && !t.crowd) unfoundTruth.push(t);
    }
  }
  unmatchedModel.sort((a, b) => rankOf(b) - rankOf(a));
  return { classes, unfoundTruth, unmatchedModel };
}

/** The minimum score keeps a box without a score (a score filter never removes one). */
export const passes = (m: ModelBox, minScore: number): boolean =>
  m.score === null || m.score >= minScore;
