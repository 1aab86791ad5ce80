/**
 * A labelling session, shared by the app's runs (run-controller.ts: a run and its resumes) and
 * `labeldesk label` (a run and its `--watch` batches): how a batch is planned, what is left of the
 * session's budget after each batch, and whether spending needs a person's yes first. Every file is
 * checked to be still the probed one before it is sent.
 */
import { checkAndReadMedia } from '../core/library/media-identity.js';
import { isDiskFull, type DiskState } from '../core/runner/disk-full.js';
import { planRun, type RunPlan } from '../core/runner/plan-run.js';
import { setReading } from '../core/runner/service-reading.js';
import type { RunProgress } from '../core/runner/progress.js';
import type { CatalogView, KeyView } from '../core/runner/service-port.js';
import type { PlannedItem } from '../core/runner/task-types.js';
import {
  runLabelling,
  stopMessage,
  type RunDeps,
  type RunOptions,
  type RunSummary,
} from '../core/runner/run-labelling.js';
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import { labelAsTeam, openTeamRun } from './team-run.js';
import { HeldOriginReread } from './held-origin-reread.js';

export { isDiskFull, setReading, stopMessage };
export type { DiskState, KeyView, RunPlan, RunProgress, RunSummary };

/** What stays the same for every batch of a session. */
export interface PlanRequest {
  solution: string;
  /** The service the session talks to (its learnt costs and open jobs). */
  serviceUrl: string;
  retryUncertain?: boolean;
  /** A person asked to retry: bytes the service refused before are sent again. */
  retryRefused?: boolean;
  /** Send again files labelled before this time; kept across batches, so none is paid twice. */
  reanalyseBefore?: number;
  /** Runs going now (another process's, by the library's lock): their files are counted apart. */
  liveRunIds?: readonly number[];
}

export interface SessionRequest extends Omit<PlanRequest, 'serviceUrl'> {
  /** Frames the whole session may spend, every batch together; null for no limit. */
  budget: number | null;
  hourBudget: number | null;
}

/** A batch's options; the budgets are the session's. */
export type BatchOptions = Omit<RunOptions, 'budgetFrames' | 'hourBudgetFrames'>;

/** What a batch needs of the service, beside the store the session was opened on. */
export type BatchDeps = Omit<RunDeps, 'store' | 'checkFile'>;

/** Plans media against the catalog with the session's options; nothing is sent or spent. */
export function planMedia(
  store: LibraryStore,
  catalog: CatalogView,
  request: PlanRequest,
  media: readonly MediaRecord[],
): RunPlan {
  return planRun(store, catalog, request.solution, media, {
    serviceUrl: request.serviceUrl,
    ...(request.retryUncertain ? { retryUncertain: true } : {}),
    ...(request.retryRefused ? { retryRefused: true } : {}),
    ...(request.reanalyseBefore !== undefined ? { reanalyseBefore: request.reanalyseBefore } : {}),
    ...(request.liveRunIds?.length ? { liveRunIds: request.liveRunIds } : {}),
  });
}

/** Photos up to this size are read on the descriptor checked before sending (one open, not two). */
const READ_WITH_CHECK_BYTES = 256 * 1024;
const checkFile = (media: MediaRecord, root: string | undefined) =>
  checkAndReadMedia(media, root, media.kind === 'image' ? READ_WITH_CHECK_BYTES : 0);

export class LabellingSession {
  /** Frames counted against the budget so far: spent, and calls that may have been charged. */
  private budgetUsed = 0;
  /** In a team project: a file is not sent because another member's run is sending it. */
  onTeamWait: ((item: PlannedItem, holder: string) => void) | undefined;
  /** Held answers were read again during the run with the origin now known: the line to say. */
  onOriginReread: ((line: string) => void) | undefined;

  constructor(
    private readonly store: LibraryStore,
    readonly request: SessionRequest,
  ) {}

  /** The next batch's plan (after a pause, or files that arrived while watching). */
  plan(catalog: CatalogView, serviceUrl: string, media: readonly MediaRecord[]): RunPlan {
    return planMedia(this.store, catalog, { ...this.request, serviceUrl }, media);
  }

  /** What the next batch may spend of the session's budget (never below zero), or null. */
  budgetLeft(): number | null {
    const { budget } = this.request;
    return budget === null ? null : Math.max(0, budget - this.budgetUsed);
  }

  /**
   * Labels one batch within what is left of the budget, and counts what it used. In a team
   * project the team's gate decides which files are sent (team-run.ts): each is paid once.
   */
  async label(deps: BatchDeps, plan: RunPlan, options: BatchOptions): Promise<RunSummary> {
    const held = new HeldOriginReread(this.store, deps.service.baseUrl, (line) =>
      this.onOriginReread?.(line),
    );
    const once = async (p: RunPlan, o: BatchOptions) => {
      // One commit per file: SQLite's own checkpoint, every ~90 photos, held the loop (and every
      // upload waiting on it) for 3-16 ms of fsyncs; once the log is that large it is copied on a
      // thread of its own instead. Each commit is as durable as before; a short run is unchanged.
      const summary = await this.store.bulkWrites(
        () =>
          runLabelling({ ...deps, store: this.store, checkFile }, p, {
            ...o,
            budgetFrames: this.budgetLeft(),
            hourBudgetFrames: this.request.hourBudget,
            onItem: (item, outcome) => {
              o.onItem?.(item, outcome);
              held.afterItem();
            },
          }),
        { checkpointAside: 'once-large' },
      );
      this.budgetUsed += summary.budgetUsed;
      await held.done();
      return summary;
    };
    const team = await openTeamRun(
      this.store,
      plan.solution.id,
      deps.service.baseUrl,
      this.onTeamWait,
    );
    return team ? labelAsTeam(team, plan, options, once) : once(plan, options);
  }
}

/**
 * Whether a plan may be sent: `go`, `ask` the person first, or `refuse` (its cost is unknown and
 * nobody accepted that, nor can be asked). `accepted` is a yes given beforehand (`--yes`, the
 * app's acceptance of an unknown cost); `canAsk` is whether a person can answer now.
 */
export function spendDecision(
  plan: Pick<RunPlan, 'frames' | 'costUnknown'>,
  how: { accepted: boolean; canAsk: boolean },
): 'go' | 'ask' | 'refuse' {
  if (how.accepted) return 'go';
  if (how.canAsk) return plan.frames > 0 || plan.costUnknown > 0 ? 'ask' : 'go';
  return plan.costUnknown > 0 ? 'refuse' : 'go';
}

/** Why a plan with an unknown cost is refused; each client adds how to accept it. */
export function unknownCostReason(plan: Pick<RunPlan, 'solution'>): string {
  return `The service does not publish what ${plan.solution.id} costs, so it is unknown until the first file is sent`;
}
