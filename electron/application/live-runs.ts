/**
 * The runs going now (in the app, another `label`), read from the library's lock: a plan made beside a run
 * counts that run's files apart, not as already labelled nor as uncertain (a file on its way is
 * not a file a crash left uncertain).
 */
import { libraryLockState } from '../core/store/library-lock.js';

interface RunsReader {
  runs: { runningSince(at: number): number[] };
}

/** Ids of the lock holder's runs (started since it took the lock); none when nobody labels. */
export function liveRunIdsOf(home: string, store: RunsReader): number[] {
  let state: ReturnType<typeof libraryLockState>;
  try {
    state = libraryLockState(home);
  } catch {
    return []; // a library that cannot be locked (read-only) has no run going in it
  }
  // A held lock whose holder's note is not written yet: its runs cannot be told from a crash's.
  if (!state.held || !state.holder) return [];
  return store.runs.runningSince(state.holder.since);
}
