/**
 * The run's side of learning a frame cost: while a medium's cost is unknown its files are sent one
 * at a time with nothing else in flight (so GET /key's difference is that file's alone); what a
 * call teaches is stored per service and solution, and the files still queued are priced with it,
 * so the run goes back to full concurrency and its budgets hold exactly from then on.
 */
import type { RunnerStore } from './runner-store.js';
import type { CostKind } from '../store/store-types.js';
import { costOf, type Solution } from './cost-estimate.js';
import { isDiskFull } from './disk-full.js';
import { isPublished } from './learn-cost.js';
import type { CatalogView, KeyView, ServicePort } from './service-port.js';
import type { PlannedItem } from './task-types.js';

export interface CostLearningDeps {
  store: RunnerStore;
  serviceUrl: string;
  /** The catalog as the service published it (learnt costs not merged in). */
  catalog: CatalogView;
  solution: Solution;
  now: () => number;
  onLearnt?: ((kind: CostKind, frames: number) => void) | undefined;
  /** The key lost `frames` more (or fewer) than the run accounted with learnt costs. */
  onDrift?: ((frames: number) => void) | undefined;
}

export class CostLearning {
  /** A file teaching a cost is on its way: nothing else starts until it is back. */
  busy = false;
  private current: Solution;

  constructor(private readonly deps: CostLearningDeps) {
    this.current = deps.solution;
  }

  get solution(): Solution {
    return this.current;
  }

  /** Prices the item if its cost has become known; true when it must still be sent alone. */
  mustGoAlone(item: PlannedItem): boolean {
    if (!item.costUnknown) return false;
    this.reprice(item);
    return item.costUnknown;
  }

  /** A queued file's cost with what is known now (a resumed clip is paid for already). */
  reprice(item: PlannedItem): void {
    if (item.resumeSubmissionId !== undefined) return;
    const cost = costOf(item.media, this.current, this.deps.catalog.limits);
    if (cost === null) return;
    item.cost = cost;
    item.costUnknown = false;
  }

  /** Whether some cost of this run's solution is not published (so it was learnt, or is being). */
  get reliesOnLearnt(): boolean {
    const { catalog, solution } = this.deps;
    return (
      !isPublished(catalog, solution.id, 'image') ||
      !isPublished(catalog, solution.id, 'videoFrame')
    );
  }

  /**
   * After a run priced with learnt costs: does the key's own count agree with what was accounted?
   * Calls in flight together cannot each be measured, so the run as a whole is. A difference
   * means the cost changed (or someone else spent on the key): the learnt costs are forgotten (the
   * next run learns them again from one file) and the difference is entered in the ledger, so the
   * ledger keeps the key's count and the hour budget counts what was really spent. Returns it.
   */
  async verify(service: ServicePort, start: KeyView, accounted: number): Promise<number> {
    const end = await service.keyStatus().catch(() => undefined);
    if (!end) return 0;
    const drift = start.remaining - end.remaining - accounted;
    if (drift === 0) return 0;
    const { store, serviceUrl, solution } = this.deps;
    try {
      store.transaction(() => {
        store.costs.forget(serviceUrl, solution.id);
        store.ledger.record({ serviceUrl, submissionId: null, frames: drift, at: this.deps.now() });
      });
    } catch (err) {
      if (!isDiskFull(err)) throw err;
    }
    this.deps.onDrift?.(drift);
    return drift;
  }

  /**
   * What one frame of `kind` cost, as the service counted it. A published cost is the catalog's
   * word and stays; an unpublished one is stored (again whenever a call's spend differs from it).
   */
  learn(kind: CostKind, frames: number): void {
    const { store, serviceUrl, catalog, solution } = this.deps;
    if (!Number.isFinite(frames) || frames < 0) return;
    if (isPublished(catalog, solution.id, kind)) return;
    if (this.current.frameCost[kind] === frames) return;
    try {
      store.costs.set(serviceUrl, solution.id, kind, frames, this.deps.now());
    } catch (err) {
      // A full disk only means the next run learns it again: this run still uses it.
      if (!isDiskFull(err)) throw err;
    }
    this.current = { ...this.current, frameCost: { ...this.current.frameCost, [kind]: frames } };
    this.deps.onLearnt?.(kind, frames);
  }
}
