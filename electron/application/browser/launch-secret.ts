/** The per-launch secret of browser mode, compared in constant time; it lives only in memory. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newLaunchSecret(): string {
  return randomBytes(24).toString('base64url');
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  // Digests first: equal lengths for timingSafeEqual, and no early exit on length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
