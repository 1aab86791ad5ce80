/** The decoder for each model file the solutions name. */
import { blazefaceRunner } from './blazeface-decode.js';
import { centernetRunner } from './centernet-decode.js';
import { handtrackRunner } from './handtrack-decode.js';
import type { ModelRunner } from './model-runner.js';
import { movenetRunner } from './movenet-decode.js';

const RUNNERS: readonly ModelRunner[] = [
  centernetRunner,
  blazefaceRunner,
  handtrackRunner,
  movenetRunner,
];

export function runnerFor(model: string): ModelRunner | undefined {
  return RUNNERS.find((r) => r.model === model);
}
