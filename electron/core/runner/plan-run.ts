/** What a run would do, from the catalog and the store alone: nothing is sent and nothing is spent. */
import type { RunnerStore } from './runner-store.js';
import type { MediaRecord, ResultRow, SubmissionRow } from '../store/store-types.js';
import { costOf, refuseLocally, type Solution } from './cost-estimate.js';
import { withLearntCosts } from './learn-cost.js';
import type { CatalogView } from './service-port.js';
import type { PlannedItem } from './task-types.js';

export interface ItemIssue {
  media: MediaRecord;
  code: string;
  message: string;
}

export interface RunPlan {
  solution: Solution;
  /** Files to send, in order; clips whose job already exists are resumed, not re-sent. */
  items: PlannedItem[];
  /** Already labelled with this solution (same content), or a duplicate of a file in this run. */
  reused: MediaRecord[];
  duplicates: MediaRecord[];
  refused: ItemIssue[];
  /** Files whose last call may have been charged without an answer; sent again only on request. */
  uncertain: ItemIssue[];
  /** Frames the items to send will cost (resumed jobs are already paid for), where known. */
  frames: number;
  /** Items whose cost is not known until the first file of their kind is sent (not in `frames`). */
  costUnknown: number;
  images: number;
  clips: number;
  /** Files a live run (PlanOptions.liveRunIds) has sent or is sending: its own tally counts them. */
  inRun?: number;
}

/** Refusals that depend only on the file's bytes, so the same content is never sent again. */
const PERMANENT_REFUSALS: ReadonlySet<string> = new Set([
  'undecodable_media',
  'unsupported_media_type',
  'empty_file',
  'file_too_large',
  'image_too_large',
  'video_too_long',
]);

export class UnknownSolutionError extends Error {
  override readonly name = 'UnknownSolutionError';
}

export function findSolution(catalog: CatalogView, id: string): Solution {
  const solution = catalog.solutions.find((s) => s.id === id);
  if (!solution) {
    throw new UnknownSolutionError(
      `Unknown solution "${id}"; the service offers: ${catalog.solutions.map((s) => s.id).join(', ')}.`,
    );
  }
  return solution;
}

export interface PlanOptions {
  retryUncertain?: boolean;
  /** A person asked to retry these files: bytes the service refused before are sent again. */
  retryRefused?: boolean;
  /**
   * Send files again when their content's result for this solution was saved before this time
   * (ms epoch): the new answer replaces the model's boxes, and a person's corrections stay
   * (they live beside them). A run resumed later keeps the time, so it never pays twice.
   */
  reanalyseBefore?: number;
  /** The service this run talks to: open jobs of another service are not resumed here. */
  serviceUrl?: string;
  /**
   * Runs still going (the app's estimate while it runs): their files are counted in `inRun`, not
   * as already labelled or uncertain (a file on its way is not a file a crash left uncertain).
   */
  liveRunIds?: readonly number[];
}

export function planRun(
  store: RunnerStore,
  catalog: CatalogView,
  solutionId: string,
  media: readonly MediaRecord[],
  options: PlanOptions = {},
): RunPlan {
  const planner = new RunPlanner(store, catalog, solutionId, options);
  planner.add(media);
  return planner.plan;
}

/**
 * A plan built a batch at a time, so that a run can send the first files while the rest are still
 * being read: `add` plans more media into the same `plan` (duplicates are found across batches)
 * and returns the items it added, in order.
 */
export class RunPlanner {
  readonly plan: RunPlan;
  private readonly seen = new Set<string>();

  constructor(
    private readonly store: RunnerStore,
    private readonly catalog: CatalogView,
    solutionId: string,
    private readonly options: PlanOptions = {},
  ) {
    // Costs the catalog leaves unpublished are taken from what earlier runs learnt at this service.
    const costed = options.serviceUrl
      ? withLearntCosts(catalog, store.costs, options.serviceUrl)
      : catalog;
    this.plan = {
      solution: findSolution(costed, solutionId),
      items: [],
      reused: [],
      duplicates: [],
      refused: [],
      uncertain: [],
      frames: 0,
      costUnknown: 0,
      images: 0,
      clips: 0,
    };
  }

  add(media: readonly MediaRecord[]): PlannedItem[] {
    const from = this.plan.items.length;
    const known = knownFor(this.store, this.plan.solution.id, media);
    for (const m of media) this.addOne(m, known);
    return this.plan.items.slice(from);
  }

  private addOne(m: MediaRecord, known: Known): void {
    const { plan, store, options, seen, catalog } = this;
    const solution = plan.solution;
    if (m.status === 'error') {
      plan.refused.push({
        media: m,
        code: m.errorCode ?? 'unreadable',
        message: m.errorMessage ?? 'The file could not be read.',
      });
      return;
    }
    if (!m.contentHash) {
      plan.refused.push({
        media: m,
        code: 'not_hashed',
        message: 'The file could not be read to compute its content hash.',
      });
      return;
    }
    const hashed = m as MediaRecord & { contentHash: string };
    if (seen.has(m.contentHash)) {
      plan.duplicates.push(m);
      return;
    }
    seen.add(m.contentHash);
    if (options.liveRunIds?.length) {
      const latest = known.submissions.get(m.contentHash);
      if (latest && options.liveRunIds.includes(latest.runId)) {
        plan.inRun = (plan.inRun ?? 0) + 1;
        return;
      }
    }
    const done = known.results.get(m.contentHash);
    if (
      done &&
      !(options.reanalyseBefore !== undefined && done.createdAt < options.reanalyseBefore)
    ) {
      plan.reused.push(m);
      return;
    }
    const refusal = refuseLocally(m, solution, catalog.limits);
    if (refusal) {
      plan.refused.push({ media: m, ...refusal });
      return;
    }
    const last: SubmissionRow | undefined = known.submissions.get(m.contentHash);
    const cost = costOf(m, solution, catalog.limits);
    if (last?.jobId && (last.state === 'sending' || last.state === 'queued')) {
      const jobService = store.runs.serviceUrlOf(last.runId);
      if (options.serviceUrl && jobService && jobService !== options.serviceUrl) {
        // Its job runs at another service: polling this one would only get a 404, and sending the
        // clip here would pay twice. It is collected by a run against its own service.
        plan.uncertain.push({
          media: m,
          code: 'job_at_other_service',
          message: `This clip's job is still open at ${jobService}; label it with --service ${jobService} to collect it.`,
        });
        return;
      }
      plan.items.push({ media: hashed, cost: cost ?? 0, resumeSubmissionId: last.id });
      plan.clips++;
      return;
    }
    if (
      last?.state === 'failed' &&
      last.errorCode &&
      PERMANENT_REFUSALS.has(last.errorCode) &&
      !options.retryRefused
    ) {
      // The service refused these very bytes (same content hash): sending them again cannot succeed.
      plan.refused.push({
        media: m,
        code: last.errorCode,
        message: last.errorMessage ?? 'The service refused this file.',
      });
      return;
    }
    if (last?.state === 'uncertain' && !options.retryUncertain) {
      plan.uncertain.push({
        media: m,
        code: last.errorCode ?? 'answer_lost',
        message: last.errorMessage ?? 'The last call may have been charged.',
      });
      return;
    }
    // Still `sending` with no job id: a run stopped (a crash, kill -9) while this file's request
    // was on its way. The service may have processed and charged it, so it is uncertain too.
    if (last?.state === 'sending' && !last.jobId && !options.retryUncertain) {
      plan.uncertain.push({
        media: m,
        code: 'interrupted_in_flight',
        message:
          'A run stopped while this file was being sent; the service may have charged it. Retry it explicitly.',
      });
      return;
    }
    if (cost === null) {
      plan.items.push({ media: hashed, cost: 0, costUnknown: true });
      plan.costUnknown++;
    } else {
      plan.items.push({ media: hashed, cost });
      plan.frames += cost;
    }
    if (m.kind === 'image') plan.images++;
    else plan.clips++;
  }
}

/** Results and latest submissions of a batch's contents, read in a few queries, not two per file. */
interface Known {
  results: Map<string, ResultRow>;
  submissions: Map<string, SubmissionRow>;
}

/** Hashes per query: one JSON list of ~66 KB. */
const KNOWN_CHUNK = 1000;

function knownFor(store: RunnerStore, solution: string, media: readonly MediaRecord[]): Known {
  const { results, submissions } = store;
  const hashes = [...new Set(media.flatMap((m) => (m.contentHash ? [m.contentHash] : [])))];
  const known: Known = { results: new Map(), submissions: new Map() };
  for (let i = 0; i < hashes.length; i += KNOWN_CHUNK) {
    const chunk = hashes.slice(i, i + KNOWN_CHUNK);
    for (const [h, r] of results.findMany(chunk, solution)) known.results.set(h, r);
    for (const [h, s] of submissions.latestForMany(chunk, solution)) known.submissions.set(h, s);
  }
  return known;
}
