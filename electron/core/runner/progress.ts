/**
 * Counts, frames, rate and ETA for progress bars and UI events. Work is measured in frames, so a
 * 400-frame clip weighs as much as a hundred 4-frame photos, and a clip's job moves the bar as it runs.
 */
export interface RunProgress {
  total: number;
  completed: number;
  labelled: number;
  failed: number;
  uncertain: number;
  waitingForCredits: number;
  framesSpent: number;
  /** The frames of work in this run (resumed clips included) and how much of it is done. */
  totalFrames: number;
  completedFrames: number;
  /** Files completed per second since the run started. */
  ratePerSec: number;
  /** From the recent rate of frames done (eta-estimator.ts), so a long clip does not make it jump. */
  etaSec: number | null;
}

interface Counts {
  labelled: number;
  failed: readonly unknown[];
  uncertain: readonly unknown[];
  waitingForCredits: number;
  framesSpent: number;
}

import { EtaEstimator } from './eta-estimator.js';

export function progressTracker(files: number, frames: number, now: () => number) {
  let total = files;
  let totalFrames = frames;
  const started = now();
  let completed = 0;
  let completedFrames = 0;
  /** Clips under way: the share of their frames their job has done. */
  const partial = new Map<number, number>();
  const eta = new EtaEstimator(now);
  const framesDone = () => {
    let done = completedFrames;
    for (const f of partial.values()) done += f;
    return Math.min(totalFrames, done);
  };
  return {
    /** More work joined the run (planned while it was sending). */
    grow(files: number, frames: number) {
      total += files;
      totalFrames += frames;
    },
    complete(key: number, frames: number) {
      completed++;
      completedFrames += frames;
      partial.delete(key);
      eta.record(framesDone());
    },
    /** A clip's job reported `progress` (0–1) of its `frames`. */
    progress(key: number, frames: number, progress: number) {
      partial.set(key, frames * progress);
      eta.record(framesDone());
    },
    snapshot(c: Counts): RunProgress {
      const seconds = Math.max(0.001, (now() - started) / 1000);
      const done = framesDone();
      return {
        total,
        completed,
        labelled: c.labelled,
        failed: c.failed.length,
        uncertain: c.uncertain.length,
        waitingForCredits: c.waitingForCredits,
        framesSpent: c.framesSpent,
        totalFrames,
        completedFrames: Math.round(done),
        ratePerSec: completed / seconds,
        etaSec: eta.etaSec(totalFrames),
      };
    },
  };
}
