/**
 * Review priority and Review next (issue 13 §4). The scores are computed off the main thread (the
 * thresholds by the evaluation worker, the per-file scan by the library view's thread) and cached
 * in the library; they are computed again only when what they depend on has changed (see
 * `ReviewPriorityApi.fingerprint`), so pressing Enter through a batch stays instant.
 */
import type { AsyncView } from '../core/library-view/library-view-client.js';
import type {
  MediaReader,
  PriorityPort,
  ResultsReader,
  ReviewedPort,
  SettingsReader,
  StoreFile,
} from '../core/store/store-ports.js';
import type { MediaRecord } from '../core/store/store-types.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import { evaluateLibrary } from './evaluation/quality-handlers.js';
import { storedTarget } from './evaluation/quality-target.js';

export class ReviewPriorityCache {
  private readonly computing = new Map<string, Promise<void>>();

  constructor(
    private readonly store: PriorityPort & StoreFile & SettingsReader,
    private readonly view: AsyncView,
    private readonly nativeBinding?: string,
  ) {}

  /** Resolves once the solution's stored scores answer to the library as it is now. */
  fresh(solution: string): Promise<void> {
    const running = this.computing.get(solution);
    if (running) return running;
    // The thresholds follow the person's target: another target makes the stored scores stale.
    const target = storedTarget(this.store, solution);
    const fingerprint = `${this.store.priority.fingerprint(solution)} target=${target}`;
    if (this.store.priority.storedFingerprint(solution) === fingerprint) return Promise.resolve();
    const work = this.compute(solution, fingerprint, target).finally(() =>
      this.computing.delete(solution),
    );
    this.computing.set(solution, work);
    return work;
  }

  private async compute(solution: string, fingerprint: string, target: number): Promise<void> {
    const report = await evaluateLibrary(
      this.store,
      { solution, minScore: 0, targetPrecision: target },
      this.nativeBinding,
    );
    const thresholds = report.calibration.flatMap((c): [string, number][] =>
      c.threshold === null ? [] : [[c.label, c.threshold]],
    );
    const { scores, medians } = await this.view.priorityScores(solution, thresholds);
    // Stamped with the fingerprint read before: a change made meanwhile triggers another pass.
    this.store.priority.replace(solution, fingerprint, { thresholds, medians }, scores);
  }
}

export function reviewNextHandlers(
  store: MediaReader & ResultsReader & ReviewedPort,
  view: AsyncView,
  priority: ReviewPriorityCache,
  changed: (media: MediaRecord) => void,
  ownClaim?: { list(): readonly number[] },
): Pick<Handlers, 'review.next'> {
  return {
    'review.next': async ({ id, solution }) => {
      const m = store.media.byId(id);
      if (!m) throw new LabelDeskError('not_found', `There is no item ${id} in the library.`);
      // Moving on marks the file reviewed, as M does; a file without labels has nothing to mark.
      const labelled = m.contentHash !== null && store.results.find(m.contentHash, solution);
      const marked = labelled
        ? store.reviewed.markReviewed([id], solution, 'person').length > 0
        : false;
      if (marked) changed(m);
      // In a team project with a claim ("Get work"), Enter walks one's own claim, best first.
      // Once it is all reviewed, "Get work" brings more: never a file another member holds.
      const own = ownClaim?.list() ?? [];
      if (own.length > 0) {
        const left = own.filter((other) => other !== id && !store.reviewed.of(other, solution));
        return { marked, next: left[0] ?? null, remaining: left.length };
      }
      await priority.fresh(solution);
      const filter = { solution, review: 'unreviewed' as const };
      const [ids, remaining] = await Promise.all([
        view.ids({ filter, sort: 'priority', descending: false, offset: 0, limit: 2 }),
        view.count(filter),
      ]);
      const next = ids.find((other) => other !== id) ?? null;
      return { marked, next, remaining: Math.max(0, remaining - (ids.includes(id) ? 1 : 0)) };
    },
  };
}
