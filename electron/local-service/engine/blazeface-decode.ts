/**
 * BlazeFace (short range, 256×256, RGB scaled to -1…1). Four outputs: scores and 16 regressors
 * for 512 anchors on a 16×16 grid (2 per cell) and 384 anchors on an 8×8 grid (6 per cell).
 * Regressors 0–3 are centre offset and size in input pixels; the rest are landmarks (unused).
 */
import * as tf from '@tensorflow/tfjs-core';
import { cornersToBox, letterbox } from './image-prep.js';
import { labelOf, type ModelRunner } from './model-runner.js';
import { BLAZEFACE_SCORE_FLOOR } from './score-floors.js';
import { nonMaxSuppression, type Candidate } from './nms.js';

const INPUT_SIZE = 256;
const IOU_THRESHOLD = 0.3;
/** [grid cells per side, anchors per cell], in the order the anchors are numbered. */
const LAYERS: readonly (readonly [number, number])[] = [
  [16, 2],
  [8, 6],
];

/** Anchor centres in input pixels, built once. */
const ANCHORS: readonly (readonly [number, number])[] = LAYERS.flatMap(([cells, perCell]) => {
  const stride = INPUT_SIZE / cells;
  const out: [number, number][] = [];
  for (let gy = 0; gy < cells; gy++)
    for (let gx = 0; gx < cells; gx++)
      for (let n = 0; n < perCell; n++) out.push([(gx + 0.5) * stride, (gy + 0.5) * stride]);
  return out;
});

const sigmoid = (v: number): number => 1 / (1 + Math.exp(-v));

export const blazefaceRunner: ModelRunner = {
  model: 'blazeface',
  async run(model, image, classes) {
    const { input, scaleX, scaleY } = letterbox(image, INPUT_SIZE);
    const normalised = tf.tidy(() => tf.sub(tf.div(input, 127.5), 1));
    input.dispose();
    const outputs = model.execute(normalised) as tf.Tensor[];
    normalised.dispose();
    try {
      // Outputs come back in graph order, not anchor order: pick each by its shape.
      const pick = (
        anchors: number,
        width: number,
      ): Promise<Float32Array | Int32Array | Uint8Array> => {
        const t = outputs.find((o) => o.shape[1] === anchors && o.shape[2] === width);
        if (!t) throw new Error(`blazeface: no output of shape [1, ${anchors}, ${width}]`);
        return t.data();
      };
      const [scoresA, scoresB, regA, regB] = await Promise.all([
        pick(512, 1),
        pick(384, 1),
        pick(512, 16),
        pick(384, 16),
      ]);
      const found: Candidate[] = [];
      ANCHORS.forEach(([ax, ay], i) => {
        const [scores, reg, k] = i < 512 ? [scoresA, regA, i] : [scoresB, regB, i - 512];
        const score = sigmoid(scores[k] ?? -Infinity);
        if (score < BLAZEFACE_SCORE_FLOOR) return;
        const [dx, dy, w, h] = [
          reg[k * 16] ?? 0,
          reg[k * 16 + 1] ?? 0,
          reg[k * 16 + 2] ?? 0,
          reg[k * 16 + 3] ?? 0,
        ];
        const cx = ax + dx;
        const cy = ay + dy;
        const sx = scaleX / INPUT_SIZE;
        const sy = scaleY / INPUT_SIZE;
        const box = cornersToBox(
          (cx - w / 2) * sx,
          (cy - h / 2) * sy,
          (cx + w / 2) * sx,
          (cy + h / 2) * sy,
        );
        if (box.w > 0 && box.h > 0) found.push({ classId: 0, score, box });
      });
      return nonMaxSuppression(found, IOU_THRESHOLD).map((c) => ({
        ...c,
        label: labelOf(classes, 0),
      }));
    } finally {
      tf.dispose(outputs);
    }
  },
};
