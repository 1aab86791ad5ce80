/**
 * Where the model named the wrong class: among an image's leftovers at IoU 0.5, each model box
 * (highest score first) pairs with the free truth box of another class it overlaps most, if by
 * 0.5 or more. What stays unpaired is a plain miss or a plain false positive.
 */
import { iou } from '../../shared/geometry/box-math.js';
import { IOU_THRESHOLDS } from './coco-thresholds.js';
import type { ModelBox, TruthBox } from './evaluation-types.js';

export interface Confusions {
  pairs: { truth: TruthBox; model: ModelBox }[];
  misses: TruthBox[];
  falsePositives: ModelBox[];
}

export function pairConfusions(
  unfoundTruth: readonly TruthBox[],
  unmatchedModel: readonly ModelBox[],
): Confusions {
  const threshold = IOU_THRESHOLDS[0] as number;
  const taken = new Uint8Array(unfoundTruth.length);
  const pairs: Confusions['pairs'] = [];
  const falsePositives: ModelBox[] = [];
  for (const m of unmatchedModel) {
    let best = threshold;
    let g = -1;
    unfoundTruth.forEach((t, i) => {
      if (taken[i] || t.label === m.label) return;
      const o = iou(m.bbox, t.bbox);
      if (o >= best) {
        best = o;
        g = i;
      }
    });
    if (g < 0) {
      falsePositives.push(m);
      continue;
    }
    taken[g] = 1;
    pairs.push({ truth: unfoundTruth[g] as TruthBox, model: m });
  }
  return { pairs, misses: unfoundTruth.filter((_, i) => !taken[i]), falsePositives };
}
