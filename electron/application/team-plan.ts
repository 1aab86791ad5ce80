/**
 * `labeldesk plan` in a team project: files whose answer the team already holds (this solution,
 * this service) cost nothing, since a run takes them from the hub (team-run.ts). Asked in batches;
 * a hub that cannot be asked leaves the plan as it is, saying so.
 */
import type { RunPlan } from '../core/runner/plan-run.js';
import type { TeamPort } from '../core/store/store-ports.js';
import { openLinkedHub } from './linked-hub.js';

const BATCH = 500;

export interface TeamPlan extends RunPlan {
  /** Files the team already has answers for: taken from the hub, not sent nor paid. */
  teamHas: RunPlan['items'];
  /** Why the hub could not be asked (the plan then counts every file as to pay). */
  teamAway: string | null;
}

export const answeredSql = (s: string) => `
  SELECT DISTINCT content_hash FROM ${s}.answers
   WHERE content_hash = ANY($1::text[]) AND solution = $2 AND service = $3`;

/** The plan as it is outside a team project; in one, with what the team already holds. */
export async function withTeamAnswers(
  store: TeamPort,
  plan: RunPlan,
  service: string,
): Promise<RunPlan | TeamPlan> {
  const link = store.team.link();
  if (!link) return plan;
  const base: TeamPlan = { ...plan, teamHas: [], teamAway: null };
  // A resumed clip is paid for already: only new sends can be saved.
  const asked = plan.items.filter((i) => i.resumeSubmissionId === undefined);
  if (asked.length === 0) return base;
  const hub = await openLinkedHub(link);
  const known = new Set<string>();
  try {
    for (let i = 0; i < asked.length; i += BATCH) {
      const hashes = asked.slice(i, i + BATCH).map((x) => x.media.contentHash);
      const rows = await hub.use((sql, s) =>
        sql.unsafe<{ content_hash: string }[]>(answeredSql(s), [hashes, plan.solution.id, service]),
      );
      for (const r of rows) known.add(r.content_hash);
    }
  } catch (err) {
    return { ...base, teamAway: err instanceof Error ? err.message : String(err) };
  } finally {
    await hub.close();
  }
  return split(base, known);
}

function split(plan: TeamPlan, known: ReadonlySet<string>): TeamPlan {
  const out: TeamPlan = { ...plan, items: [], teamHas: [] };
  for (const item of plan.items) {
    if (item.resumeSubmissionId !== undefined || !known.has(item.media.contentHash)) {
      out.items.push(item);
      continue;
    }
    out.teamHas.push(item);
    if (item.costUnknown) out.costUnknown--;
    else out.frames -= item.cost;
    if (item.media.kind === 'image') out.images--;
    else out.clips--;
  }
  return out;
}
