/**
 * A run's time left, from the rate work has been getting done since it started getting done.
 * The rate since the run began (the old estimate) counts the start (models loading, the first
 * file sent alone to learn its cost, the first answers' latency) as if every file took that
 * long: 15 s into a 2-minute run it said 11 minutes. Here the clock starts at the first finished
 * work, the rate is read over a recent window (a service that slows down shows), and the time
 * since the last finished work is taken off (the estimate keeps counting down between answers).
 */

/** Work finished longer ago than this no longer sets the rate. */
const WINDOW_MS = 60_000;
/** Answers landing this close together (parallel requests) are one step of work. */
const TOGETHER_MS = 50;

interface Sample {
  at: number;
  done: number;
}

export class EtaEstimator {
  private readonly samples: Sample[] = [];
  /** Whether the first step of work is still among the samples (the window has not moved). */
  private fromStart = true;

  constructor(private readonly now: () => number) {}

  /** `done`: the frames of work finished so far (a clip's job counts as it moves). */
  record(done: number): void {
    const last = this.samples.at(-1);
    if (last && done <= last.done) return;
    const at = this.now();
    // Answers that land together (parallel requests) are one step, anchored at its end: a rate
    // read across a few milliseconds of one step would be absurd.
    if (last && at - last.at < TOGETHER_MS) {
      last.at = at;
      last.done = done;
    } else this.samples.push({ at, done });
    // Keep the newest sample older than the window as the window's start.
    while (this.samples.length > 3 && at - (this.samples[1] as Sample).at >= WINDOW_MS) {
      this.samples.shift();
      this.fromStart = false;
    }
  }

  /** Seconds left for `total` frames of work, or null until two steps of work have finished. */
  etaSec(total: number): number | null {
    const now = this.now();
    const latest = this.samples.at(-1);
    if (!latest) return null;
    // A step younger than TOGETHER_MS may still be landing (one answer of four): the rate runs
    // to the step before it.
    let end = this.samples.length - 1;
    if (end >= 1 && now - latest.at < TOGETHER_MS) end--;
    // The first step often went alone (a cost learnt) and the next ones had a pipeline to fill:
    // from the second step on, when there is a third, the rate is the parallel one.
    const first = this.samples[this.fromStart && end >= 2 ? 1 : 0];
    const last = this.samples[end];
    if (!first || !last || last.at <= first.at) return null;
    const rate = (last.done - first.done) / (last.at - first.at);
    if (!(rate > 0)) return null;
    const left = Math.max(0, total - latest.done) / rate - (now - latest.at);
    return Math.max(0, left / 1000);
  }
}
