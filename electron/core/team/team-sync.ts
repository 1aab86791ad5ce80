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
/**
 * A page is applied in slices of about this long, each its own transaction with its cursor, the
 * event loop running between them: the app's main process (review edits, the grid's reads) never
 * waits for a whole page of a long pull.
 */
const SLICE_MS = 20;
const FIRST_SLICE = 100;
const MIN_SLICE = 50;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  let slice = FIRST_SLICE;
  for (;;) {
    const cursor = store.team.link()?.pullCursor ?? 0;
    const page = await hub.pull(cursor, PULL_PAGE);
    // The page is in seq order: each slice's last change is where the cursor may move to.
    for (let i = 0; i < page.length;) {
      const part = page.slice(i, i + slice);
      const t = performance.now();
      applyPulled(store, part, now());
      const took = performance.now() - t;
      i += part.length;
      pulled += part.length;
      const fits = Math.round((slice * SLICE_MS) / Math.max(took, 1));
      slice = Math.max(MIN_SLICE, Math.min(2 * slice, PULL_PAGE, fits));
      if (i < page.length) await yieldToLoop();
    }
    // A short page was the end of the log: no second round trip to learn it.
    if (page.length < PULL_PAGE) break;
    await yieldToLoop();
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
