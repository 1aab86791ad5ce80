/** The seeded random stream the fuzzer draws every decision from, and small helpers over it. */

export type Rng = () => number;

/** mulberry32: small, fast and good enough to make traffic reproducible from one 32-bit seed. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T =>
  items[Math.floor(rng() * items.length)]!;
export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const randomBytes = (rng: Rng, n: number) =>
  Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)));
