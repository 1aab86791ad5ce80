/**
 * Per-class score thresholds for a target precision, from the model's boxes on reviewed files
 * (each a true or false positive at IoU 0.5). A threshold is proposed only where the evidence
 * carries it: the lowest score at which the 95 % Wilson interval of the precision of the boxes
 * at or above it lies wholly at or above the target. So a class with few reviewed boxes gets no
 * threshold, and says why.
 */

/** z for a two-sided 95 % interval. */
const Z = 1.959963984540054;

export interface Wilson {
  low: number;
  high: number;
}

/** The Wilson score interval of `hits` successes in `n` trials (n > 0). */
export function wilsonInterval(hits: number, n: number): Wilson {
  const p = hits / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface ClassThreshold {
  label: string;
  /** Null: no threshold (see `reason`). */
  threshold: number | null;
  /**
   * Reviewed model boxes at or above the threshold; without one, those of the best cut: the
   * highest-scored boxes whose interval's lower end is highest (the strongest evidence there is).
   */
  boxes: number;
  precision: number;
  interval: Wilson | null;
  /**
   * ok; no-boxes; too-little-evidence: the best cut's interval still reaches the target, so more
   * reviewed boxes could carry it; below-target: even the best cut's interval lies wholly below it.
   */
  reason: 'ok' | 'no-boxes' | 'too-little-evidence' | 'below-target';
  /**
   * Too little evidence at a precision above the target: about how many reviewed boxes at that
   * precision would carry it (the best cut's count included). Null otherwise.
   */
  needed: number | null;
}

/** `scores` and `hits` side by side: a model box's score and whether it was right. */
export function classThreshold(
  label: string,
  scores: readonly number[],
  hits: readonly boolean[],
  target: number,
): ClassThreshold {
  const order = scores
    .map((_, i) => i)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number));
  const n = order.length;
  if (n === 0)
    return {
      label,
      threshold: null,
      boxes: 0,
      precision: -1,
      interval: null,
      reason: 'no-boxes',
      needed: null,
    };
  let best: ClassThreshold | null = null;
  let strongest = { boxes: 0, tp: 0, interval: { low: -1, high: 0 } };
  let tp = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k] as number;
    if (hits[i]) tp++;
    const score = scores[i] as number;
    // A cut falls only between different scores: boxes of equal score stand or fall together.
    if (k + 1 < n && (scores[order[k + 1] as number] as number) === score) continue;
    const interval = wilsonInterval(tp, k + 1);
    if (interval.low >= strongest.interval.low) strongest = { boxes: k + 1, tp, interval };
    if (interval.low >= target) {
      best = {
        label,
        threshold: score,
        boxes: k + 1,
        precision: tp / (k + 1),
        interval,
        reason: 'ok',
        needed: null,
      };
    }
  }
  if (best) return best;
  const precision = strongest.tp / strongest.boxes;
  return {
    label,
    threshold: null,
    boxes: strongest.boxes,
    precision,
    interval: strongest.interval,
    reason: strongest.interval.high >= target ? 'too-little-evidence' : 'below-target',
    needed: strongest.interval.high >= target ? boxesNeeded(precision, target) : null,
  };
}

/** Past this many boxes a precision this close to the target is not worth naming a count for. */
const MAX_NEEDED = 1_000_000;

/** The fewest boxes at `precision` whose interval's lower end clears `target`; null if none. */
export function boxesNeeded(precision: number, target: number): number | null {
  if (!(precision > target)) return null;
  const clears = (n: number) => wilsonInterval(precision * n, n).low >= target;
  if (!clears(MAX_NEEDED)) return null;
  // The lower end grows with n at a fixed precision: the least n is found by halving.
  let lo = 1;
  let hi = MAX_NEEDED;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (clears(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
