/**
 * The engine of a service started for a command that only reads (plan, status, jobs --cancel):
 * nothing is loaded and nothing can be analysed, so such a service can never advance a stored job
 * or answer with boxes; inference is refused with 503 `engine_unavailable`.
 */
import type { DetectionEngine, EngineStatus } from './engine-types.js';

const REASON = 'analysis is off in this service (it was started by a command that only reads)';

export function createOffEngine(solutionIds: readonly string[]): DetectionEngine {
  const status: EngineStatus = {
    state: 'off',
    solutions: Object.fromEntries(solutionIds.map((id) => [id, 'off'])),
    error: REASON,
  };
  return {
    kind: 'off',
    status: () => status,
    whenReady: () => Promise.reject(new Error(REASON)),
    detect: () => Promise.reject(new Error(REASON)),
    close: () => Promise.resolve(),
  };
}
