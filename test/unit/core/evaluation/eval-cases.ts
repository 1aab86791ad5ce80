/** Builds the same case for the product (EvalImage) and the reference (flat COCO lists). */
import type { EvalImage } from '../../../../electron/core/evaluation/evaluation-types.js';
import type { RefAnnotation, RefBox, RefDetection } from '../../../support/coco-reference.js';
import { mulberry32 } from '../../../support/seeded-random.js';

export interface CaseImage {
  truth: [label: string, box: RefBox][];
  model: [label: string, score: number, box: RefBox][];
}

export function productImages(images: readonly CaseImage[]): EvalImage[] {
  return images.map((img, i) => ({
    mediaId: i + 1,
    path: `/lib/${i + 1}.jpg`,
    frameIndex: 0,
    truth: img.truth.map(([label, bbox], k) => ({ key: `t${k}`, label, bbox })),
    model: img.model.map(([label, score, bbox], k) => ({ key: `d${k}`, label, score, bbox })),
  }));
}

export function referenceInput(images: readonly CaseImage[]) {
  const truth: RefAnnotation[] = [];
  const detections: RefDetection[] = [];
  images.forEach((img, i) => {
    for (const [category, bbox] of img.truth) truth.push({ image: i, category, bbox });
    for (const [category, score, bbox] of img.model) {
      detections.push({ image: i, category, score, bbox });
    }
  });
  return { imageIds: images.map((_, i) => i), truth, detections };
}

/** A small seeded generator, so a failing random case can be replayed. */
export const seeded = mulberry32;

const LABELS = ['apple', 'orange', 'person'];

/** Truth boxes, model boxes near them (jittered, sometimes the wrong class), strays and ties. */
export function randomCase(random: () => number): CaseImage[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const boxAt = (): RefBox => {
    const w = 0.05 + random() * 0.4;
    const h = 0.05 + random() * 0.4;
    return { x: random() * (1 - w), y: random() * (1 - h), w, h };
  };
  // Scores on a coarse grid, so equal scores (ties) happen often.
  const score = () => Math.round(random() * 10) / 10;
  return Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
    const truth = Array.from(
      { length: Math.floor(random() * 6) },
      () => [pick(LABELS), boxAt()] as [string, RefBox],
    );
    const model: CaseImage['model'] = [];
    for (const [label, b] of truth) {
      const copies = Math.floor(random() * 3);
      for (let c = 0; c < copies; c++) {
        const j = () => (random() - 0.5) * 0.3 * Math.min(b.w, b.h);
        model.push([
          random() < 0.2 ? pick(LABELS) : label,
          score(),
          { x: b.x + j(), y: b.y + j(), w: b.w + j(), h: b.h + j() },
        ]);
      }
    }
    for (let s = Math.floor(random() * 4); s > 0; s--) model.push([pick(LABELS), score(), boxAt()]);
    return { truth, model };
  });
}
