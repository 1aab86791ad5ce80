/**
 * A labelling run of a library in a team project (app and CLI alike, through the labelling
 * session): the run's files go through the team's gate (core/team/run-gate.ts) so the team pays
 * once per file. Files other members' runs hold are waited for after the run's own; those whose
 * claims expired (their run died) are then sent in a further pass of the same run.
 */
import { randomUUID } from 'node:crypto';
import type { RunPlan } from '../core/runner/plan-run.js';
import type { RunSummary } from '../core/runner/run-result.js';
import type { PlannedItem } from '../core/runner/task-types.js';
import { abortableSleep } from '../core/runner/run-stop.js';
import type { TeamAnswersPort } from '../core/store/store-ports.js';
import { TeamRunGate } from '../core/team/run-gate.js';
import type { BatchOptions } from './labelling-session.js';

/** Claims live a minute unless renewed; tests shorten it to see a dead run's claims expire. */
const envMs = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export interface TeamRun {
  gate: TeamRunGate;
  close(): Promise<void>;
}

/** The team gate of a run, or undefined when the library is in no project. */
export async function openTeamRun(
  store: TeamAnswersPort,
  solution: string,
  service: string,
  onWait?: (item: PlannedItem, holder: string) => void,
): Promise<TeamRun | undefined> {
  const link = store.team.link();
  if (!link) return undefined;
  // Loaded only for a library in a project: the hub's driver (postgres.js) costs a run ~40 ms.
  const { openLinkedHub } = await import('./linked-hub.js');
  const hub = await openLinkedHub(link);
  const gate = new TeamRunGate({
    store,
    hub,
    solution,
    service,
    run: randomUUID(),
    ttlMs: envMs('LABELDESK_TEAM_CLAIM_MS', 60_000),
    pollMs: envMs('LABELDESK_TEAM_POLL_MS', 500),
    maxWaitMs: envMs('LABELDESK_TEAM_WAIT_MS', 15 * 60_000),
    now: Date.now,
    sleep: abortableSleep,
    ...(onWait ? { onWait } : {}),
  });
  return {
    gate,
    async close() {
      try {
        await gate.close();
      } finally {
        await hub.close();
      }
    },
  };
}

const halted = (s: RunSummary) => s.stoppedFor !== null || s.interrupted || s.diskFull;

/** Two passes of one run as one summary. */
function merged(a: RunSummary, b: RunSummary): RunSummary {
  return {
    ...a,
    labelled: a.labelled + b.labelled,
    failed: [...a.failed, ...b.failed],
    uncertain: [...a.uncertain, ...b.uncertain],
    waitingForCredits: a.waitingForCredits + b.waitingForCredits,
    framesSpent: a.framesSpent + b.framesSpent,
    stoppedFor: a.stoppedFor ?? b.stoppedFor,
    serviceWait: a.serviceWait ?? b.serviceWait,
    interrupted: a.interrupted || b.interrupted,
    clipsOpen: a.clipsOpen + b.clipsOpen,
    notSent: a.notSent + b.notSent,
    diskFull: a.diskFull || b.diskFull,
    budgetUsed: a.budgetUsed + b.budgetUsed,
  };
}

/** Labels a plan through the team's gate; `once` runs the scheduler over a plan. */
export async function labelAsTeam(
  team: TeamRun,
  plan: RunPlan,
  options: BatchOptions,
  once: (plan: RunPlan, options: BatchOptions) => Promise<RunSummary>,
): Promise<RunSummary> {
  const { gate } = team;
  try {
    const onItem: BatchOptions['onItem'] = (item, outcome) => {
      gate.settled(item, outcome);
      options.onItem?.(item, outcome);
    };
    const { arrivals } = options;
    let summary = await once(
      { ...plan, items: await gate.admit(plan.items) },
      { ...options, onItem, ...(arrivals ? { arrivals: gate.admitting(arrivals) } : {}) },
    );
    const stops = [options.signal, options.stop].filter((s) => s !== undefined);
    const halt = AbortSignal.any(stops);
    while (gate.waitingCount > 0 && !halted(summary) && !halt.aborted) {
      const items = await gate.sendableLater(halt);
      if (items.length === 0) break;
      const rest: RunPlan = {
        ...plan,
        items,
        reused: [],
        duplicates: [],
        refused: [],
        uncertain: [],
        frames: items.reduce((n, i) => n + i.cost, 0),
      };
      const { arrivals: _none, ...without } = options;
      summary = merged(summary, await once(rest, { ...without, onItem }));
    }
    // Stopped while waiting: what another member holds was not sent by this run.
    summary.notSent += gate.waitingCount;
    summary.failed.push(...gate.report.held);
    summary.reused += gate.report.taken;
    summary.team = {
      taken: gate.report.taken,
      waitedFor: gate.report.waitedFor,
      offline: gate.report.offline,
    };
    return summary;
  } finally {
    await team.close();
  }
}
