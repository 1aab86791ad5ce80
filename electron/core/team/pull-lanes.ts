/**
 * Which thread applies a pull. A team's everyday pull is a few changes (a NOTIFY per push): read
 * and applied here, in one slice of a few milliseconds, it reaches the library without a thread
 * hop (the latency path). A pull that finds a full first page (a day offline, a large import by
 * another member) goes to the pull thread (pull-thread.ts), so the main loop never applies it.
 */
import type { TeamApplyPort } from '../store/store-ports.js';
import { applyPulled } from './apply-changes.js';
import type { HubClient } from './hub-client.js';

/** At most this many changes are applied here (about 15 ms of CPU). */
export const APPLY_HERE = 100;

export function pullByLane(
  store: TeamApplyPort,
  hub: Pick<HubClient, 'pull'>,
  now: () => number,
  thread: () => Promise<number>,
): () => Promise<number> {
  return async () => {
    const page = await hub.pull(store.team.link()?.pullCursor ?? 0, APPLY_HERE);
    if (page.length === APPLY_HERE) return thread();
    applyPulled(store, page, now());
    return page.length;
  };
}
