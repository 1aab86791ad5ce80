/**
 * One sync: push this desktop's outbox in order (ids make a repeated push harmless), then pull
 * the hub's changes after the cursor and apply them page by page (the cursor moves in the same
 * local transaction as the apply). A crash at any point loses nothing and applies nothing twice.
 */
import type { LibraryStore } from '../store/store-types.js';
import { applyPulled } from './apply-changes.js';
import type { HubClient } from './hub-client.js';

const PUSH_PAGE = 1000;
const PULL_PAGE = 5000;

/** Pushes the outbox, a page at a time; how many changes went. */
export async function pushOutbox(
  store: LibraryStore,
  hub: Pick<HubClient, 'push'>,
): Promise<number> {
  let pushed = 0;
  for (;;) {
    const page = store.team.outbox(PUSH_PAGE);
    if (page.length === 0) break;
    await hub.push(page);
    store.team.markPushed(page.map((c) => c.id));
    pushed += page.length;
  }
  return pushed;
}

/** Pulls and applies the hub's changes after the cursor; how many came. */
export async function pullChanges(
  store: LibraryStore,
  hub: Pick<HubClient, 'pull'>,
  now: () => number,
): Promise<number> {
  let pulled = 0;
  for (;;) {
    const cursor = store.team.link()?.pullCursor ?? 0;
    const page = await hub.pull(cursor, PULL_PAGE);
    if (page.length === 0) break;
    applyPulled(store, page, now());
    pulled += page.length;
  }
  return pulled;
}

export async function syncChanges(
  store: LibraryStore,
  hub: Pick<HubClient, 'push' | 'pull'>,
  now: () => number,
): Promise<{ pushed: number; pulled: number }> {
  const pushed = await pushOutbox(store, hub);
  const pulled = await pullChanges(store, hub, now);
  // A sync that found nothing new still says when the desktop was last in step with the hub.
  store.team.moveCursor(0, now());
  return { pushed, pulled };
}
