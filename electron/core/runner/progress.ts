/** Counts, frames, rate and ETA for progress bars and UI events. */
export interface RunProgress {
  total: number;
  completed: number;
  labelled: number;
  failed: number;
  uncertain: number;
  waitingForCredits: number;
  framesSpent: number;
  /** Files completed per second since the run started. */
  ratePerSec: number;
  etaSec: number | null;
}

interface Counts {
  labelled: number;
  failed: readonly unknown[];
  uncertain: readonly unknown[];
  waitingForCredits: number;
  framesSpent: number;
}

export function progressTracker(total: number, now: () => number) {
  const started = now();
  let completed = 0;
  return {
    complete() {
      completed++;
    },
    snapshot(c: Counts): RunProgress {
      const seconds = Math.max(0.001, (now() - started) / 1000);
      const rate = completed / seconds;
      const left = Math.max(0, total - completed);
      return {
        total,
        completed,
        labelled: c.labelled,
        failed: c.failed.length,
        uncertain: c.uncertain.length,
        waitingForCredits: c.waitingForCredits,
        framesSpent: c.framesSpent,
        ratePerSec: rate,
        etaSec: rate > 0 ? left / rate : null,
      };
    },
  };
}
