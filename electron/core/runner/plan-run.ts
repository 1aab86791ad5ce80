/** What a run would do, from the catalog and the store alone: nothing is sent and nothing is spent. */
import type { LibraryStore, MediaRecord, SubmissionRow } from '../store/store-types.js';
import { costOf, refuseLocally, type Solution } from './cost-estimate.js';
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
  /** Frames the items to send will cost (resumed jobs are already paid for). */
  frames: number;
  images: number;
  clips: number;
}

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

export function planRun(
  store: LibraryStore,
  catalog: CatalogView,
  solutionId: string,
  media: readonly MediaRecord[],
  options: { retryUncertain?: boolean } = {},
): RunPlan {
  const solution = findSolution(catalog, solutionId);
  const plan: RunPlan = {
    solution,
    items: [],
    reused: [],
    duplicates: [],
    refused: [],
    uncertain: [],
    frames: 0,
    images: 0,
    clips: 0,
  };
  const seen = new Set<string>();
  for (const m of media) {
    if (m.status === 'error') {
      plan.refused.push({
        media: m,
        code: m.errorCode ?? 'unreadable',
        message: m.errorMessage ?? 'The file could not be read.',
      });
      continue;
    }
    if (!m.contentHash) {
      plan.refused.push({
        media: m,
        code: 'not_hashed',
        message: 'The file could not be read to compute its content hash.',
      });
      continue;
    }
    const hashed = m as MediaRecord & { contentHash: string };
    if (seen.has(m.contentHash)) {
      plan.duplicates.push(m);
      continue;
    }
    seen.add(m.contentHash);
    if (store.results.find(m.contentHash, solution.id)) {
      plan.reused.push(m);
      continue;
    }
    const refusal = refuseLocally(m, solution, catalog.limits);
    if (refusal) {
      plan.refused.push({ media: m, ...refusal });
      continue;
    }
    const last: SubmissionRow | undefined = store.submissions.latestFor(m.contentHash, solution.id);
    const cost = costOf(m, solution, catalog.limits);
    if (last?.jobId && (last.state === 'sending' || last.state === 'queued')) {
      plan.items.push({ media: hashed, cost, resumeSubmissionId: last.id });
      plan.clips++;
      continue;
    }
    if (last?.state === 'uncertain' && !options.retryUncertain) {
      plan.uncertain.push({
        media: m,
        code: last.errorCode ?? 'answer_lost',
        message: last.errorMessage ?? 'The last call may have been charged.',
      });
      continue;
    }
    plan.items.push({ media: hashed, cost });
    plan.frames += cost;
    if (m.kind === 'image') plan.images++;
    else plan.clips++;
  }
  return plan;
}
