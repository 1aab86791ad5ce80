/** The seeded random stream the fuzzer draws every decision from, and small helpers over it. */
import { mulberry32, type Random } from '../../../support/seeded-random.js';

export type Rng = Random;

/** mulberry32: traffic reproducible from one 32-bit seed. */
export const seededRng = mulberry32;

export const pick = <T>(rng: Rng, items: readonly T[]): T =>
  items[Math.floor(rng() * items.length)]!;
export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const randomBytes = (rng: Rng, n: number) =>
  Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)));
