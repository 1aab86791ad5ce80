/**
 * Whether a path lies inside a folder, for every folder `/` included (`dir + sep` would be `//`).
 * Paths are compared as given (absolute, normalised): links are the scan's business, not this.
 */
import path from 'node:path';

/** `p` is strictly below `dir`. */
export function isInside(p: string, dir: string): boolean {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return p !== dir && p.startsWith(prefix);
}

/** `p` is `dir` or below it. */
export const isWithin = (p: string, dir: string): boolean => p === dir || isInside(p, dir);
