/**
 * Planning that runs beside sending (`labeldesk label --yes`, where nobody confirms a total):
 * the paths are scanned first, then the files already read are planned, then each page of new
 * files as soon as the read pass has stored its hash and probe. The run sends what is planned
 * while the next pages are read, so the service is busy long before the last file is hashed.
 * Credits stay exact: the run reserves each file's frames as it sends it, whatever the plan
 * will total; a plan whose costs are not all published is not streamed (its first file teaches).
 */
import { RunPlanner, findSolution, type PlanOptions } from '../core/runner/plan-run.js';
import type { RunPlan } from '../core/runner/plan-run.js';
import type { CatalogView } from '../core/runner/service-port.js';
import type { PlannedItem } from '../core/runner/task-types.js';
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import { scanPaths, selectedMedia, type Selection } from './collect-media.js';

export interface StreamedPlan {
  /** Grows while `items` is consumed; complete once it has ended. */
  plan: RunPlan;
  /** The items to send, page by page; consume once (the run's `arrivals`). */
  items: AsyncIterable<readonly PlannedItem[]>;
  /** Its `media` are filled in (as stored) when `items` ends; its issues are known at once. */
  selection: Selection;
}

export interface StreamPlanRequest extends PlanOptions {
  paths: readonly string[];
  solution: string;
  onStage?: (text: string) => void;
  signal?: AbortSignal;
}

/** True when every cost of the solution is known, so a plan needs no first file to price it. */
export function costsKnown(plan: Pick<RunPlan, 'solution'>): boolean {
  const { image, videoFrame } = plan.solution.frameCost;
  return image !== null && videoFrame !== null;
}

/**
 * The streamed plan when nobody has to confirm a total (`confirmed`) and every cost is known;
 * undefined otherwise (then the whole plan is made first, as `planPaths` does). A mistyped
 * solution is refused before anything is scanned.
 */
export async function streamPlanPaths(
  store: LibraryStore,
  catalog: CatalogView,
  request: StreamPlanRequest,
  confirmed: boolean,
): Promise<StreamedPlan | undefined> {
  const { paths: _p, solution, onStage: _o, signal: _s, ...options } = request;
  findSolution(catalog, solution);
  const planner = new RunPlanner(store, catalog, solution, options);
  if (!confirmed || !costsKnown(planner.plan)) return undefined;
  const { selection: scanned, only } = await scanPaths(
    store,
    request.paths,
    request.onStage,
    request.signal,
  );
  const selection: Selection = { ...scanned, media: [] };
  const planned = new Set<number>();
  const plan = (rows: readonly (MediaRecord | undefined)[]): PlannedItem[] => {
    const fresh = rows.filter(
      (r): r is MediaRecord =>
        r !== undefined &&
        r.status !== 'missing' &&
        !planned.has(r.id) &&
        selection.contains(r.path),
    );
    for (const r of fresh) planned.add(r.id);
    return planner.add(fresh);
  };

  async function* items(): AsyncGenerator<readonly PlannedItem[]> {
    // Read before: planned at once (a warm library sends without waiting for anything).
    yield plan(selectedMedia(selection).filter(isRead));
    request.onStage?.('hashing and probing');
    for await (const ids of readPages(selection, only, request.signal)) {
      yield plan(ids.map((id) => store.media.byId(id)));
    }
    // Whatever the pages left (probed afterwards, changed since the scan): as collectMedia has it.
    for (const m of selectedMedia(selection)) selection.media.push(m);
    yield plan(selection.media);
  }

  return { plan: planner.plan, items: items(), selection };
}

/** A file read completely already: hashed and probed, or refused for good. */
const isRead = (m: MediaRecord) =>
  m.status === 'error' || (m.contentHash !== null && m.width !== null);

/**
 * The ids of each page the read pass stores, as they are stored. Closing the iteration early
 * stops the read pass (after the page it is reading) and waits for it.
 */
async function* readPages(
  selection: Omit<Selection, 'media'>,
  only: { folderIds: number[] },
  signal: AbortSignal | undefined,
): AsyncGenerator<readonly number[]> {
  const closed = new AbortController();
  const ready: (readonly number[])[] = [];
  let wake = () => {};
  let finished = false;
  let failure: unknown;
  const work = selection.library
    .hashAndProbePending(
      undefined,
      only,
      signal ? AbortSignal.any([signal, closed.signal]) : closed.signal,
      (ids) => {
        ready.push(ids);
        wake();
      },
    )
    .catch((err: unknown) => {
      failure = err;
    })
    .finally(() => {
      finished = true;
      wake();
    });
  try {
    for (;;) {
      const ids = ready.shift();
      if (ids) yield ids;
      else if (finished) break;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failure !== undefined) throw failure;
  } finally {
    closed.abort();
    await work;
  }
}
