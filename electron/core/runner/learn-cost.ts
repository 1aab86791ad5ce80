/**
 * Frame costs the catalog does not publish in a form LabelDesk reads are learnt from the service's
 * own count: the answer's `credits.spent` when it has one, else GET /key read before and after the
 * call (nothing else is in flight then, so the difference is that call's). What is learnt is kept
 * per service and solution, and used for plans, estimates and budgets from then on.
 */
import type { CostsPort } from '../store/store-ports.js';
import type { CostKind } from '../store/store-types.js';
import type { CatalogView, CreditsState, KeyView, ServicePort } from './service-port.js';

type Solution = CatalogView['solutions'][number];

/** The catalog with every unpublished cost replaced by the one learnt for this service, if any. */
export function withLearntCosts<C extends CatalogView>(
  catalog: C,
  costs: CostsPort['costs'],
  serviceUrl: string,
): C {
  if (catalog.solutions.every((s) => s.frameCost.image !== null && s.frameCost.videoFrame !== null))
    return catalog;
  return {
    ...catalog,
    solutions: catalog.solutions.map((s) => withCosts(s, costs.get(serviceUrl, s.id))),
  };
}

function withCosts<S extends Solution>(solution: S, learnt: Record<CostKind, number | null>): S {
  const { image, videoFrame } = solution.frameCost;
  return {
    ...solution,
    frameCost: { image: image ?? learnt.image, videoFrame: videoFrame ?? learnt.videoFrame },
  };
}

/** Whether the catalog itself publishes this cost (then nothing is learnt or stored for it). */
export function isPublished(catalog: CatalogView, solution: string, kind: CostKind): boolean {
  return (catalog.solutions.find((s) => s.id === solution)?.frameCost[kind] ?? null) !== null;
}

/** The answer's own figure for what it cost, when it gives one. */
export function spentOf(
  credits: { spent?: number | null | undefined } | null | undefined,
): number | undefined {
  const spent = credits?.spent;
  return typeof spent === 'number' && Number.isFinite(spent) ? spent : undefined;
}

/** The key's figures from an answer, when it gives both (the budget then takes the service's view). */
export function keyFiguresOf(
  credits: Partial<CreditsState> | null | undefined,
): { remaining: number; hourRemaining: number } | undefined {
  const { remaining, hourRemaining } = credits ?? {};
  return typeof remaining === 'number' && typeof hourRemaining === 'number'
    ? { remaining, hourRemaining }
    : undefined;
}

/** Frames the key lost since `before` (GET /key spends nothing). */
export async function spentSince(
  service: ServicePort,
  before: KeyView,
  signal?: AbortSignal,
): Promise<number> {
  const after = await service.keyStatus(signal);
  return Math.max(0, before.remaining - after.remaining);
}
