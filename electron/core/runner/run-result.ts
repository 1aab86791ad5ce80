/** What a run did, for the summary and the exit code, and how a run is closed in the store. */
import type { RunnerStore } from './runner-store.js';
import { isDiskFull } from './disk-full.js';
import type { ItemIssue, RunPlan } from './plan-run.js';
import { stopMessage, type StopReason } from './run-stop.js';
import type { PlannedItem, ServiceWait } from './task-types.js';

export interface RunSummary {
  labelled: number;
  reused: number;
  failed: ItemIssue[];
  uncertain: ItemIssue[];
  waitingForCredits: number;
  /** What the key paid during this run (a clip's frames when its job was created, refunds after). */
  framesSpent: number;
  stoppedFor: StopReason | null;
  /** With stoppedFor `service-wait`: the wait the service asked for, and what it was for. */
  serviceWait: ServiceWait | null;
  interrupted: boolean;
  /** Clips whose jobs run on at the service; the next run collects them without paying again. */
  clipsOpen: number;
  /** Files this run did not send because it was stopped or the disk filled up. */
  notSent: number;
  /** Sending stopped because the disk holding the library is full. */
  diskFull: boolean;
  /** Frames counted against the run budget: what was spent and calls that may have been charged. */
  budgetUsed: number;
  /** A team project's run (core/team/run-gate.ts): answers taken, files waited for, hub away. */
  team?: { taken: number; waitedFor: number; offline: string | null };
}

export function emptySummary(plan: RunPlan): RunSummary {
  return {
    labelled: 0,
    reused: 0,
    failed: plan.refused.slice(),
    uncertain: plan.uncertain.slice(),
    waitingForCredits: 0,
    framesSpent: 0,
    stoppedFor: null,
    serviceWait: null,
    interrupted: false,
    clipsOpen: 0,
    notSent: 0,
    diskFull: false,
    budgetUsed: 0,
  };
}

/** Records what was never sent for lack of credits, counts reuse and closes the run (best effort on a full disk). */
export function finishRun(
  store: RunnerStore,
  plan: RunPlan,
  runId: number,
  queue: readonly PlannedItem[],
  summary: RunSummary,
  now: () => number,
): void {
  const left = queue.filter((i) => i.resumeSubmissionId === undefined);
  // Clips resumed from an earlier run and not reached are still open at the service.
  summary.clipsOpen += queue.length - left.length;
  try {
    store.transaction(() => {
      // What was never sent because credits ran out is recorded, so the UI and the next run see it.
      if (summary.stoppedFor === null) return;
      for (const item of left) {
        const id = store.submissions.create({
          runId,
          mediaId: item.media.id,
          contentHash: item.media.contentHash,
          solution: plan.solution.id,
          framesReserved: 0,
        });
        store.submissions.setState(id, 'waiting-for-credits', {
          errorCode: `credits_${summary.stoppedFor}`,
          errorMessage: stopMessage(summary.stoppedFor),
        });
      }
    });
    store.runs.finish(
      runId,
      now(),
      summary.stoppedFor || summary.interrupted || summary.diskFull ? 'stopped' : 'done',
      plan.frames,
    );
  } catch (err) {
    if (!isDiskFull(err)) throw err;
    summary.diskFull = true;
  }
  if (summary.stoppedFor !== null) summary.waitingForCredits += left.length;
  else summary.notSent = left.length;
  summary.reused =
    plan.reused.length +
    plan.duplicates.filter(
      (m) => m.contentHash && store.results.find(m.contentHash, plan.solution.id),
    ).length;
}
