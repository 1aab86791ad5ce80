/**
 * MoveNet Lightning (single pose). Input: int32 RGB 0–255, 192×192. Output [1, 1, 17, 3]: per
 * COCO keypoint y, x (0–1 of the input) and a confidence. One person at most: the box spans the
 * confident keypoints, widened a little because joints sit inside the body's outline (the head
 * top is above the eyes, feet extend past the ankles).
 */
import * as tf from '@tensorflow/tfjs-core';
import { cornersToBox, letterbox } from './image-prep.js';
import { labelOf, type ModelRunner } from './model-runner.js';
import { MOVENET_SCORE_FLOOR } from './score-floors.js';

const INPUT_SIZE = 192;
const MIN_KEYPOINT_SCORE = MOVENET_SCORE_FLOOR;
/** Fewer confident joints than this is noise, not a person. */
const MIN_KEYPOINTS = 5;
const MARGIN = 0.1;

export const movenetRunner: ModelRunner = {
  model: 'movenet-lightning',
  async run(model, image, classes) {
    const { input, scaleX, scaleY } = letterbox(image, INPUT_SIZE);
    const asInt = tf.cast(input, 'int32');
    input.dispose();
    let output: tf.Tensor | undefined;
    try {
      output = model.execute(asInt) as tf.Tensor;
      const kp = await output.data();
      const xs: number[] = [];
      const ys: number[] = [];
      let scoreSum = 0;
      for (let i = 0; i + 2 < kp.length; i += 3) {
        const score = kp[i + 2] ?? 0;
        if (score < MIN_KEYPOINT_SCORE) continue;
        ys.push((kp[i] ?? 0) * scaleY);
        xs.push((kp[i + 1] ?? 0) * scaleX);
        scoreSum += score;
      }
      if (xs.length < MIN_KEYPOINTS) return [];
      const [x1, x2, y1, y2] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const mx = (x2 - x1) * MARGIN;
      const my = (y2 - y1) * MARGIN;
      const box = cornersToBox(x1 - mx, y1 - my, x2 + mx, y2 + my);
      if (box.w <= 0 || box.h <= 0) return [];
      return [{ label: labelOf(classes, 0), classId: 0, score: scoreSum / xs.length, box }];
    } finally {
      asInt.dispose();
      output?.dispose();
    }
  },
};
