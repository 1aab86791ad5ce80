import type { SolutionSpec } from '../solutions.js';
import type { DetectionEngine } from './engine-types.js';

/** What answers call the stand-in engine, so its grid boxes can never pass for a model's. */
export const STAND_IN_MODEL = 'null-stand-in';

/** The model name reported in `stats.model`: the solution's model, or the stand-in's name. */
export function modelName(engine: Pick<DetectionEngine, 'kind'>, solution: SolutionSpec): string {
  return engine.kind === 'null' ? STAND_IN_MODEL : solution.model;
}

/** The engine as `/healthz` and `/catalog` report it. */
export function engineName(
  engine: Pick<DetectionEngine, 'kind'>,
): 'models' | typeof STAND_IN_MODEL {
  return engine.kind === 'null' ? STAND_IN_MODEL : 'models';
}
