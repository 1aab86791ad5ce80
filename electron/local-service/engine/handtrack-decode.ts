/**
 * HandTrack (SSD MobileNet, victordibia/handtracking port). Input: int32 RGB 0–255 at any size
 * that is a multiple of 8; we keep the aspect ratio with the height capped at 512. We read two
 * nodes before the graph's own post-processing: per-anchor class scores [1, N, 7] (hand, fist,
 * pinch, point, face, tip, pinchtip) and boxes [1, N, 1, 4] as y1, x1, y2, x2 (0–1 of the input).
 */
import * as tf from '@tensorflow/tfjs-core';
import { cornersToBox, imageTensor } from './image-prep.js';
import { labelOf, type ModelRunner } from './model-runner.js';
import { HANDTRACK_SCORE_FLOOR } from './score-floors.js';
import { nonMaxSuppression, type Candidate } from './nms.js';

const MAX_SIDE = 512;
const IOU_THRESHOLD = 0.3;
const SCORES_NODE = 'StatefulPartitionedCall/Postprocessor/Slice';
const BOXES_NODE = 'StatefulPartitionedCall/Postprocessor/ExpandDims_1';
/** Whole-hand classes; face and fingertip boxes are not what a "hand" label means. */
const HAND_CLASSES = [0, 1, 2, 3];

const multipleOf8 = (v: number): number => Math.max(8, Math.round(v / 8) * 8);

export const handtrackRunner: ModelRunner = {
  model: 'handtrack',
  async run(model, image, classes) {
    const height = multipleOf8(Math.min(image.height, MAX_SIDE));
    const width = multipleOf8((height * image.width) / image.height);
    const input = tf.tidy(() => {
      const resized = tf.image.resizeBilinear(imageTensor(image), [height, width]);
      return tf.expandDims(tf.cast(resized, 'int32'), 0);
    });
    let outputs: tf.Tensor[] = [];
    try {
      outputs = (await model.executeAsync(input, [SCORES_NODE, BOXES_NODE])) as tf.Tensor[];
      const [scoresT, boxesT] = outputs;
      if (!scoresT || !boxesT) throw new Error('handtrack: missing outputs');
      const perAnchor = scoresT.shape[2] ?? 0;
      const [scores, boxes] = await Promise.all([scoresT.data(), boxesT.data()]);
      const found: Candidate[] = [];
      for (let i = 0; i * perAnchor < scores.length; i++) {
        const score = Math.max(...HAND_CLASSES.map((c) => scores[i * perAnchor + c] ?? 0));
        if (score < HANDTRACK_SCORE_FLOOR) continue;
        const [y1, x1, y2, x2] = [
          boxes[i * 4] ?? 0,
          boxes[i * 4 + 1] ?? 0,
          boxes[i * 4 + 2] ?? 0,
          boxes[i * 4 + 3] ?? 0,
        ];
        const box = cornersToBox(x1, y1, x2, y2);
        if (box.w > 0 && box.h > 0) found.push({ classId: 0, score, box });
      }
      return nonMaxSuppression(found, IOU_THRESHOLD).map((c) => ({
        ...c,
        label: labelOf(classes, 0),
      }));
    } finally {
      input.dispose();
      tf.dispose(outputs);
    }
  },
};
