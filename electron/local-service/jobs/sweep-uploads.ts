/** Removes upload files that no stored job still needs: leftovers of requests cut short by a crash. */
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Returns how many entries were removed. `keep` holds the upload paths of jobs still to run. */
export async function sweepUploads(uploadsDir: string, keep: Iterable<string>): Promise<number> {
  const kept = new Set([...keep].map((p) => resolve(p)));
  let removed = 0;
  for (const name of await readdir(uploadsDir)) {
    const path = join(uploadsDir, name);
    if (kept.has(resolve(path))) continue;
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
