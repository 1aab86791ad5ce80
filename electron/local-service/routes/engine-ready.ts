import { ApiError } from '../http/api-error.js';
import type { DetectionEngine } from '../engine/engine-types.js';

/** 503 unless the engine can analyse now: refused before any upload is read or frame reserved. */
export function requireEngineReady(engine: DetectionEngine, solutionId?: string): void {
  const status = engine.status();
  const state = solutionId ? (status.solutions[solutionId] ?? status.state) : status.state;
  if (state === 'ready') return;
  if (state === 'loading') {
    throw new ApiError(
      503,
      'engine_loading',
      'The detection models are still loading; try again shortly.',
      {
        'Retry-After': '2',
      },
    );
  }
  if (solutionId) refuseUnloadable(engine, solutionId);
  throw new ApiError(
    503,
    'engine_unavailable',
    `The detection engine is unavailable: ${status.error ?? 'failed to load'}.`,
  );
}

/** 503 for a solution that could not load (an own model); the others are served meanwhile. */
export function refuseUnloadable(engine: DetectionEngine, solutionId: string): void {
  const error = engine.status().solutionErrors?.[solutionId];
  if (error !== undefined) {
    throw new ApiError(503, 'solution_unavailable', `${solutionId} could not load: ${error}.`);
  }
}
