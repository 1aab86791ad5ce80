/**
 * The plan use-case of `labeldesk plan` and `labeldesk label`: a mistyped solution is refused
 * before a (possibly long) scan and hash, then the paths are collected and planned against the
 * catalog, with the costs learnt earlier at this service.
 */
import { findSolution, UnknownSolutionError, type RunPlan } from '../core/runner/plan-run.js';
import type { CatalogView } from '../core/runner/service-port.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { collectMedia, type Selection } from './collect-media.js';
import { planMedia, type PlanRequest } from './labelling-session.js';

export type { RunPlan };
/** A solution the catalog does not offer: thrown before anything is scanned. */
export { UnknownSolutionError };

export interface PathsPlanRequest extends PlanRequest {
  paths: readonly string[];
  onStage?: (text: string) => void;
  signal?: AbortSignal;
}

export async function planPaths(
  store: LibraryStore,
  catalog: CatalogView,
  request: PathsPlanRequest,
): Promise<{ plan: RunPlan; selection: Selection }> {
  findSolution(catalog, request.solution);
  const selection = await collectMedia(store, request.paths, request.onStage, request.signal);
  const plan = planMedia(store, catalog, request, selection.media);
  return { plan, selection };
}
