/**
 * CenterNet (MobileNetV3 backbone, 80 COCO classes). Input: float RGB 0–255, 512×512.
 * Output `tower_0/detections` [1, 100, 6]: x1, y1, x2, y2 (input pixels), score, class id — the
 * model already keeps the top 100 heatmap peaks; we keep those down to the floor and drop same-class
 * duplicates. The floor is low on purpose (issue 27: AP 33.2 at 0.05 against 24.8 at 0.3 on COCO
 * photos): which boxes a person sees is the library's minimum-score filter, not the service's.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { CENTERNET_SCORE_FLOOR } from './score-floors.js';
import type { EngineDetection } from './engine-types.js';
import { cornersToBox, letterbox } from './image-prep.js';
import { labelOf, type ModelRunner } from './model-runner.js';
import { nonMaxSuppression } from './nms.js';

const INPUT_SIZE = 512;
const IOU_THRESHOLD = 0.5;

export const centernetRunner: ModelRunner = {
  model: 'centernet',
  async run(model, image, classes) {
    const { input, scaleX, scaleY } = letterbox(image, INPUT_SIZE);
    let output: tf.Tensor | undefined;
    try {
      output = model.execute(input, 'tower_0/detections') as tf.Tensor;
      const rows = await output.data();
      const found: EngineDetection[] = [];
      for (let i = 0; i + 5 < rows.length; i += 6) {
        const score = rows[i + 4] ?? 0;
        const classId = rows[i + 5] ?? Number.NaN;
        if (!(score >= CENTERNET_SCORE_FLOOR) || !Number.isInteger(classId)) continue;
        const sx = scaleX / INPUT_SIZE;
        const sy = scaleY / INPUT_SIZE;
        const [x1, y1, x2, y2] = [
          rows[i] ?? 0,
          rows[i + 1] ?? 0,
          rows[i + 2] ?? 0,
          rows[i + 3] ?? 0,
        ];
        const box = cornersToBox(x1 * sx, y1 * sy, x2 * sx, y2 * sy);
        if (box.w <= 0 || box.h <= 0) continue;
        found.push({ label: labelOf(classes, classId), classId, score, box });
      }
      return nonMaxSuppression(found, IOU_THRESHOLD);
    } finally {
      input.dispose();
      output?.dispose();
    }
  },
};
