/**
 * What a run over a scope would cost, as counts only (no media lists): what the library view's
 * thread computes for the UI, so planning 100k files never holds the process answering it.
 */
import type { RunnerStore } from './runner-store.js';
import { scopePages, type MediaScope } from '../store/scope-media.js';
import type { MediaRecord } from '../store/store-types.js';
import { sampledFrames } from './cost-estimate.js';
import { planRun } from './plan-run.js';
import type { CatalogView } from './service-port.js';

export interface EstimateCounts {
  images: number;
  clips: number;
  clipFrames: number;
  frames: number;
  /** Files whose cost is unknown until the first of them is sent (not in `frames`). */
  costUnknown: number;
  alreadyLabelled: number;
  refused: number;
  uncertain: number;
  /** Files not read yet (hash and probe still running): not in the figures above. */
  pending: number;
  /** Files the run going now has sent or is sending (counted in its own tally, not above). */
  inRun: number;
  /** Asked for (a team project): the files to pay, for the hub to say which the team answered. */
  toPay?: ToPay[];
}

/** A file a run would send and pay: its content, kind, frames (null: unknown) and sampled frames. */
export interface ToPay {
  contentHash: string;
  video: boolean;
  frames: number | null;
  clipFrames: number;
}

export function estimateCounts(
  store: RunnerStore,
  catalog: CatalogView,
  solution: string,
  scope: MediaScope,
  serviceUrl: string,
  reanalyseBefore?: number,
  liveRunIds: readonly number[] = [],
  listToPay = false,
): EstimateCounts {
  const read: MediaRecord[] = [];
  let pending = 0;
  for (const page of scopePages(store, scope)) {
    for (const m of page) {
      if (m.contentHash !== null || m.status === 'error') read.push(m);
      else pending++;
    }
  }
  const plan = planRun(store, catalog, solution, read, {
    serviceUrl,
    ...(reanalyseBefore !== undefined ? { reanalyseBefore } : {}),
    liveRunIds,
  });
  let clipFrames = 0;
  const toPay: ToPay[] = [];
  for (const item of plan.items) {
    if (item.resumeSubmissionId !== undefined) continue;
    const video = item.media.kind === 'video';
    const sampled = video
      ? sampledFrames(item.media.durationMs ?? 0, catalog.limits.videoSampleFps)
      : 0;
    clipFrames += sampled;
    if (listToPay && item.media.contentHash !== null) {
      toPay.push({
        contentHash: item.media.contentHash,
        video,
        frames: item.costUnknown ? null : item.cost,
        clipFrames: sampled,
      });
    }
  }
  return {
    images: plan.images,
    clips: plan.clips,
    clipFrames,
    frames: plan.frames,
    costUnknown: plan.costUnknown,
    alreadyLabelled: plan.reused.length + plan.duplicates.length,
    refused: plan.refused.length,
    uncertain: plan.uncertain.length,
    pending,
    inRun: plan.inRun ?? 0,
    ...(listToPay ? { toPay } : {}),
  };
}
