/**
 * When a service's boxes decide its origin (a box outside the picture under one reading, or
 * enough boxes leaning one way), the answers held while it was undecided are read again then,
 * during the run, not only once a person confirms (issue 23 §3), and the command says which
 * evidence decided. Answers held after that in the same run are read again at its end (`label`)
 * or at the next start (the app's runs).
 */
import { decisionIn } from '../core/runner/origin-decision.js';
import type { OriginRereadSummary } from '../core/runner/reread-assumed-origin.js';
import type { AdapterNote } from '../core/service/adapter/adapter-types.js';
import type { RunnerStore } from '../core/runner/runner-store.js';

/** What a command says after held answers were read again with a decided origin. */
export function decidedRereadLine(summary: OriginRereadSummary): string | null {
  const by = summary.decidedBy ?? [];
  if (summary.files === 0 || by.length === 0) return null;
  return `Read the boxes of ${summary.files} file(s) again with the box origin their service's boxes decided: ${by.join('; ')} (${summary.corrections} correction(s) kept on them).`;
}

/**
 * After recordOrigin kept the decision an answer's notes carry: when answers are held, reads them
 * again (a promise, resolved once done; undefined when there was nothing to do).
 */
export function rereadOnDecision(
  store: RunnerStore,
  notes: readonly AdapterNote[] | undefined,
  say: (line: string) => void,
): Promise<void> | undefined {
  if (!decisionIn(notes) || store.rawAnswers.countOriginPending() === 0) return undefined;
  // Loaded only now: its stored-catalog schema is kept out of `label`'s start-up.
  return import('../core/runner/reread-assumed-origin.js').then(({ rereadAssumedOrigins }) => {
    const line = decidedRereadLine(rereadAssumedOrigins(store));
    if (line) say(line);
  });
}

/** At a run's end: held answers whose service's origin is now decided, read again; the line. */
export async function rereadDecidedAfterRun(store: RunnerStore): Promise<string | null> {
  if (store.rawAnswers.countOriginPending() === 0) return null;
  const { rereadAssumedOrigins } = await import('../core/runner/reread-assumed-origin.js');
  return decidedRereadLine(rereadAssumedOrigins(store));
}
