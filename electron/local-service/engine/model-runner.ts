/** What every per-model decoder file provides to the detection worker. */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { EngineDetection, RgbImage } from './engine-types.js';

export interface ModelRunner {
  /** Model file stem in @vladmandic/human's models folder. */
  readonly model: string;
  /** Prepares the input, runs the model and decodes boxes; disposes every tensor it makes. */
  run(model: GraphModel, image: RgbImage, classes: readonly string[]): Promise<EngineDetection[]>;
}

export function labelOf(classes: readonly string[], classId: number): string {
  return classes[classId] ?? `class ${classId}`;
}
