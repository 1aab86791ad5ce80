/** The product's model-quality figures against the independent reference, on random cases. */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../electron/core/evaluation/evaluate.js';
import { cocoReference } from '../../../support/coco-reference.js';
import { productImages, randomCase, referenceInput, seeded } from './eval-cases.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

describe('evaluation equals the reference computation', () => {
  it('on 300 random libraries (ties, duplicates, wrong classes, strays, empty images)', () => {
    const random = seeded(13);
    let checkedClasses = 0;
    for (let n = 0; n < 300; n++) {
      const images = randomCase(random);
      const minScore = [0, 0.3, 0.55][n % 3]!;
      const got = evaluate(productImages(images), { minScore });
      const ref = referenceInput(images);
      const want = cocoReference(ref.imageIds, ref.truth, ref.detections, minScore);
      const where = `case ${n}`;
      expect(
        got.classes.map((c) => c.label),
        where,
      ).toEqual(want.classes.map((c) => c.label));
      got.classes.forEach((c, i) => {
        const w = want.classes[i]!;
        expect([c.tp, c.fp, c.fn], `${where} ${c.label}`).toEqual([w.tp, w.fp, w.fn]);
        for (const k of ['precision', 'recall', 'ap50', 'ap'] as const) {
          expect(close(c[k], w[k]), `${where} ${c.label} ${k}: ${c[k]} vs ${w[k]}`).toBe(true);
        }
        expect(c.curve, `${where} ${c.label} curve`).toEqual(want.curves.get(c.label) ?? []);
        checkedClasses++;
      });
      expect(close(got.map50, want.map50), `${where} map50`).toBe(true);
      expect(close(got.map, want.map), `${where} map`).toBe(true);
    }
    expect(checkedClasses).toBeGreaterThan(500);
  });
});
