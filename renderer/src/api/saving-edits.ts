/**
 * Edits still being saved, renderer-wide. Edits are shown at once and saved in the background, so
 * anything that reads what is saved (an export) waits for them first: a box changed a moment ago
 * is in the file the person exports right after.
 */
const saving = new Set<Promise<void>>();

/** Counts `work` as saving until it settles (fulfilled or not). */
export function trackSaving(work: Promise<unknown>): void {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  saving.add(settled);
  void settled.then(() => saving.delete(settled));
}

/** Resolves once every edit tracked so far, and any tracked while waiting, has settled. */
export async function editsSaved(): Promise<void> {
  while (saving.size > 0) await Promise.all([...saving]);
}
