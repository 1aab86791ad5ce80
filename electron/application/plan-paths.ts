/**
 * The plan use-case of `labeldesk plan` and `labeldesk label`: a mistyped solution is refused
 * before a (possibly long) scan and hash, then the paths are collected and planned against the
 * catalog, with the costs learnt earlier at this service.
 */
import { findSolution, planRun, type RunPlan } from '../core/runner/plan-run.js';
import type { CatalogView } from '../core/runner/service-port.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { collectMedia, type Selection } from './collect-media.js';

export type { RunPlan };

export interface PathsPlanRequest {
  paths: readonly string[];
  solution: string;
  /** The service the run talks to (its learnt costs and open jobs). */
  serviceUrl: string;
  retryUncertain?: boolean;
  /** Send again files labelled before this time. */
  reanalyseBefore?: number;
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
  const plan = planRun(store, catalog, request.solution, selection.media, {
    serviceUrl: request.serviceUrl,
    ...(request.retryUncertain ? { retryUncertain: true } : {}),
    ...(request.reanalyseBefore !== undefined ? { reanalyseBefore: request.reanalyseBefore } : {}),
  });
  return { plan, selection };
}
