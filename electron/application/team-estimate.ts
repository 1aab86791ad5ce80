/**
 * The Runs screen's estimate in a team project, as `labeldesk plan` counts it (team-plan.ts):
 * files whose answer the team already holds (this solution, this service) are taken from the hub
 * when the run comes to them, so they are not counted as to send nor to pay. A hub that cannot be
 * asked leaves the counts as they are, saying why.
 */
import type { AsyncView } from '../core/library-view/library-view-client.js';
import type { EstimateCounts } from '../core/runner/estimate-counts.js';
import type { TeamPort } from '../core/store/store-ports.js';
import { openLinkedHub } from './linked-hub.js';
import { answeredSql } from './team-plan.js';

const BATCH = 500;

export type TeamEstimateCounts = Omit<EstimateCounts, 'toPay'> & {
  /** In a team project: files the team already answered (free), and why the hub was not asked. */
  teamHas?: number;
  teamAway?: string | null;
};

async function answered(
  store: TeamPort,
  hashes: readonly string[],
  solution: string,
  service: string,
): Promise<Set<string>> {
  const link = store.team.link();
  const known = new Set<string>();
  if (!link || hashes.length === 0) return known;
  const hub = await openLinkedHub(link);
  try {
    for (let i = 0; i < hashes.length; i += BATCH) {
      const batch = hashes.slice(i, i + BATCH);
      const rows = await hub.use((sql, s) =>
        sql.unsafe<{ content_hash: string }[]>(answeredSql(s), [batch, solution, service]),
      );
      for (const r of rows) known.add(r.content_hash);
    }
  } finally {
    await hub.close();
  }
  return known;
}

/** The counts with what the team holds taken out (or unchanged outside a team project). */
export async function withTeamEstimate(
  store: TeamPort,
  counts: EstimateCounts,
  solution: string,
  service: string,
): Promise<TeamEstimateCounts> {
  const { toPay, ...out } = counts;
  if (!toPay || !store.team.link()) return out;
  let known: Set<string>;
  try {
    known = await answered(
      store,
      toPay.map((f) => f.contentHash),
      solution,
      service,
    );
  } catch (err) {
    return { ...out, teamHas: 0, teamAway: err instanceof Error ? err.message : String(err) };
  }
  const free = { ...out, teamHas: 0, teamAway: null };
  for (const f of toPay) {
    if (!known.has(f.contentHash)) continue;
    free.teamHas++;
    if (f.video) free.clips--;
    else free.images--;
    free.clipFrames -= f.clipFrames;
    if (f.frames === null) free.costUnknown--;
    else free.frames -= f.frames;
  }
  return free;
}

/** The view's estimate (on its thread), in a team project with the files to pay and the hub asked. */
export async function estimateWithTeam(
  store: TeamPort,
  view: Pick<AsyncView, 'estimate'>,
  input: Omit<Parameters<AsyncView['estimate']>[0], 'listToPay'>,
): Promise<TeamEstimateCounts> {
  const inTeam = store.team.link() !== undefined;
  const counts = await view.estimate({ ...input, listToPay: inTeam });
  return inTeam ? withTeamEstimate(store, counts, input.solution, input.serviceUrl) : counts;
}
