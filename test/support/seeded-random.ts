/**
 * Seeded generators for tests and benches: the same seed gives the same data on every run, so a
 * failing random case can be replayed. Two kinds because existing fixtures were drawn from each
 * and their expected figures depend on the exact stream.
 */
export type Random = () => number;

/** mulberry32: small, fast, and good enough for reproducible test data. */
export function mulberry32(seed: number): Random {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The classic linear congruential generator (the C library's constants), in [0, 1). */
export function lcgRandom(seed: number): Random {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}
