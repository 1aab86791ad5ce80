/** Boxes packed in columns for a long clip come back exactly as they went, field by field. */
import { describe, expect, it } from 'vitest';
import {
  packReviewBoxes,
  PackedReviewBoxes,
  unpackReviewBoxes,
} from '../../../electron/shared/contract/packed-review-boxes.js';
import type { ReviewBox } from '../../../electron/shared/contract/review-schemas.js';

const bbox = { x: 0.1234567890123, y: 0.2, w: 0.3, h: 1 / 3 };
const modelBox: ReviewBox = {
  key: 'd7',
  detectionId: 7,
  correctionId: null,
  frameIndex: 12,
  timeMs: 12_000,
  label: 'person',
  score: 0.87654321,
  bbox,
  origin: 'model',
  review: 'pending',
  deleted: false,
  model: { label: 'person', score: 0.87654321, bbox },
  trackId: 3,
  rule: null,
};
const boxes: ReviewBox[] = [
  modelBox,
  // Moved, relabelled and accepted by a rule: its model box differs from it.
  {
    ...modelBox,
    key: 'd8',
    detectionId: 8,
    correctionId: 2,
    label: 'walker',
    bbox: { ...bbox, x: 0.5 },
    origin: 'edited',
    review: 'accepted',
    rule: 'person ≥ 0.8',
  },
  // Drawn by a person, deleted, in no track, on an image (no time).
  {
    ...modelBox,
    key: 'c9',
    detectionId: null,
    correctionId: 9,
    frameIndex: 0,
    timeMs: null,
    score: 1,
    origin: 'added',
    review: 'rejected',
    deleted: true,
    model: null,
    trackId: null,
  },
  { ...modelBox, key: 'odd-key', detectionId: 10 },
];

const base64 = (a: Float64Array | Int32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
const bytes = (s: string) => {
  const b = Buffer.from(s, 'base64');
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};

describe('packed review boxes', () => {
  it('round-trips every field through the contract’s JSON', () => {
    const p = packReviewBoxes(boxes);
    const wire = PackedReviewBoxes.parse(
      JSON.parse(JSON.stringify({ ...p, numbers: base64(p.numbers), ints: base64(p.ints) })),
    );
    const back = unpackReviewBoxes({
      ...wire,
      numbers: new Float64Array(bytes(wire.numbers)),
      ints: new Int32Array(bytes(wire.ints)),
    });
    expect(back).toEqual(boxes);
    expect(p.models).toHaveLength(1);
    expect(p.strings).toEqual(['person', 'walker', 'person ≥ 0.8']);
  });

  it('packs 50,000 boxes to a quarter of their JSON or less', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => ({
      ...modelBox,
      key: `d${i + 1}`,
      detectionId: i + 1,
      frameIndex: i >> 3,
      bbox: { x: Math.random(), y: Math.random(), w: 0.1, h: 0.2 },
      score: Math.random(),
    })).map((b) => ({ ...b, model: { label: b.label, score: b.score, bbox: b.bbox } }));
    const p = packReviewBoxes(many);
    const packed = JSON.stringify({ ...p, numbers: base64(p.numbers), ints: base64(p.ints) });
    expect(packed.length).toBeLessThan(JSON.stringify(many).length / 4);
  });
});
