/**
 * Issue 24 §4: the Runs screen's "time left" settles within 10 % once a tenth of the work is
 * done, on an injected clock: a simulated run whose first file goes alone and slowly (models
 * loading, the cost learnt) before the rest go in parallel with uneven latencies.
 */
import { describe, expect, it } from 'vitest';
import { progressTracker } from '../../../../electron/core/runner/progress.js';

interface Sim {
  files: number;
  slots: number;
  latencyMs: number;
  firstAloneMs: number;
  seed: number;
}

/** When each file finishes: the first alone, then `slots` at a time, latency ±30 % (seeded). */
function finishTimes(s: Sim): number[] {
  let x = s.seed;
  const jitter = () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return 0.7 + 0.6 * (x / 2 ** 31);
  };
  const ends = [s.firstAloneMs];
  const free = Array.from({ length: s.slots }, () => s.firstAloneMs);
  for (let i = 1; i < s.files; i++) {
    free.sort((a, b) => a - b);
    const end = (free[0] as number) + s.latencyMs * jitter();
    free[0] = end;
    ends.push(end);
  }
  return ends.sort((a, b) => a - b);
}

/** The worst distance of the predicted end from the real end, after a tenth of the files. */
function worstMiss(s: Sim): { worst: number; duration: number; checks: number } {
  let t = 0;
  const tracker = progressTracker(s.files, s.files, () => t);
  const ends = finishTimes(s);
  const duration = ends.at(-1) as number;
  const counts = { labelled: 0, failed: [], uncertain: [], waitingForCredits: 0, framesSpent: 0 };
  let next = 0;
  let worst = 0;
  let checks = 0;
  for (t = 0; t < duration; t += 100) {
    while (next < ends.length && (ends[next] as number) <= t) tracker.complete(next++, 1);
    if (next < s.files / 10) continue;
    const eta = tracker.snapshot(counts).etaSec;
    expect(eta).not.toBeNull();
    worst = Math.max(worst, Math.abs(t + (eta as number) * 1000 - duration));
    checks++;
  }
  return { worst, duration, checks };
}

describe('time left of a run', () => {
  it('a 2-minute run whose first file took 10 s: within 10 % from a tenth of the work on', () => {
    const r = worstMiss({ files: 120, slots: 2, latencyMs: 1800, firstAloneMs: 10_000, seed: 7 });
    expect(r.duration).toBeGreaterThan(100_000);
    expect(r.duration).toBeLessThan(140_000);
    expect(r.checks).toBeGreaterThan(500);
    expect(r.worst).toBeLessThanOrEqual(0.1 * r.duration);
  });

  it('many parallel requests answering together, and a long run: within 10 % too', () => {
    for (const seed of [1, 2, 3]) {
      const fast = worstMiss({ files: 400, slots: 8, latencyMs: 600, firstAloneMs: 4000, seed });
      expect(fast.worst).toBeLessThanOrEqual(0.1 * fast.duration);
      const slow = worstMiss({ files: 1000, slots: 1, latencyMs: 400, firstAloneMs: 30_000, seed });
      expect(slow.worst).toBeLessThanOrEqual(0.1 * slow.duration);
    }
  });

  it('answers landing a few milliseconds apart are one step, not an absurd rate', () => {
    let t = 0;
    const tracker = progressTracker(41, 41, () => t);
    const counts = { labelled: 0, failed: [], uncertain: [], waitingForCredits: 0, framesSpent: 0 };
    // The first file alone at 10 s, then four answers 2 ms apart every second: done at 20.006 s.
    const ends = [10_000];
    for (let burst = 1; burst <= 10; burst++)
      for (let k = 0; k < 4; k++) ends.push(10_000 + burst * 1000 + k * 2);
    const end = ends.at(-1) as number;
    let worst = 0;
    let next = 0;
    // Each answer lands at its own time; the screen reads every 100 ms.
    for (let at = 0; at < end; at += 100) {
      while (next < ends.length && (ends[next] as number) <= at) {
        t = ends[next] as number;
        tracker.complete(next++, 1);
      }
      t = at;
      if (next < 5) continue;
      const eta = tracker.snapshot(counts).etaSec;
      expect(eta).not.toBeNull();
      worst = Math.max(worst, Math.abs(t + (eta as number) * 1000 - end));
    }
    expect(worst).toBeLessThanOrEqual(0.1 * end);
  });

  it('says nothing before two steps of work have finished', () => {
    let t = 0;
    const tracker = progressTracker(10, 10, () => t);
    const counts = { labelled: 0, failed: [], uncertain: [], waitingForCredits: 0, framesSpent: 0 };
    t = 5000;
    tracker.complete(0, 1);
    expect(tracker.snapshot(counts).etaSec).toBeNull();
    t = 6000;
    tracker.complete(1, 1);
    t = 6100;
    expect(tracker.snapshot(counts).etaSec).toBeCloseTo(7.9, 5);
  });
});
