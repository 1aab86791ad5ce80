/**
 * One sync: push this desktop's outbox in order (ids make a repeated push harmless), then pull
 * the hub's changes after the cursor and apply them page by page (the cursor moves in the same
 * local transaction as the apply). A crash at any point loses nothing and applies nothing twice.
 */
import type { TeamApplyPort } from '../store/store-ports.js';
import { applyPulled } from './apply-changes.js';
import type { HubClient } from './hub-client.js';
import { checkHubHolds } from './hub-connect-check.js';
import { keepOthersConflictsOpen } from './others-conflict-edits.js';
import type { PulledChange } from '../store/team-types.js';

const PUSH_PAGE = 1000;
const PULL_PAGE = 5000;
/**
 * A page is applied in slices of about this much of this process's CPU time, each its own
 * transaction with its cursor, the event loop running between them: the app's main process
 * (review edits, the grid's reads) never waits for a whole page of a long pull. CPU time, not
 * wall time: on a busy machine the wall time of a slice is mostly other processes' turns, and
 * slicing finer for it would only add commits.
 */
const SLICE_MS = 20;
const FIRST_SLICE = 100;
const MIN_SLICE = 50;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Pushes the outbox, a page at a time; how many changes went. */
export async function pushOutbox(
  store: TeamApplyPort,
  hub: Pick<HubClient, 'push'>,
): Promise<number> {
  let pushed = 0;
  keepOthersConflictsOpen(store);
  for (;;) {
    const page = store.team.outbox(PUSH_PAGE);
    if (page.length === 0) break;
    await hub.push(page);
    store.team.markPushed(page.map((c) => c.id));
    pushed += page.length;
  }
  return pushed;
}

/** Applies one page (in seq order: each slice's last change is where the cursor may move to). */
async function applyInSlices(
  store: TeamApplyPort,
  page: readonly PulledChange[],
  now: () => number,
  slice: number,
): Promise<number> {
  for (let i = 0; i < page.length;) {
    const part = page.slice(i, i + slice);
    const t = cpuMs();
    applyPulled(store, part, now());
    const fits = Math.round((slice * SLICE_MS) / Math.max(cpuMs() - t, 1));
    slice = Math.max(MIN_SLICE, Math.min(2 * slice, PULL_PAGE, fits));
    i += part.length;
    await yieldToLoop();
  }
  return slice;
}

/** Pulls and applies the hub's changes after the cursor; how many came. */
export async function pullChanges(
  store: TeamApplyPort,
  hub: Pick<HubClient, 'pull'>,
  now: () => number,
): Promise<number> {
  let pulled = 0;
  let slice = FIRST_SLICE;
  let next = hub.pull(store.team.link()?.pullCursor ?? 0, PULL_PAGE);
  for (;;) {
    const page = await next;
    const last = page[page.length - 1];
    // A short page was the end of the log: no second round trip to learn it. A full one: the
    // next page is read while this one is applied (a failure meets the await above, next time).
    const more = page.length === PULL_PAGE && last !== undefined;
    if (more) {
      next = hub.pull(last.seq, PULL_PAGE);
      next.catch(() => undefined);
    }
    slice = await applyInSlices(store, page, now, slice);
    pulled += page.length;
    if (!more) break;
  }
  return pulled;
}

/**
 * `push`: how this sync pushes (the sync engine passes its own, one push at a time); `pull`: how
 * it pulls (the app's engine, on a thread of its own: pull-thread.ts).
 */
export async function syncChanges(
  store: TeamApplyPort,
  hub: Pick<HubClient, 'push' | 'pull'>,
  now: () => number,
  push: () => Promise<number> = () => pushOutbox(store, hub),
  pull: () => Promise<number> = () => pullChanges(store, hub, now),
): Promise<{ pushed: number; pulled: number }> {
  let pushed = await push();
  // A new connection may have reached a promoted standby lacking what it was told was saved.
  if ((await checkHubHolds(store, hub)).pushAgain > 0) pushed += await push();
  const pulled = await pull();
  // A sync that found nothing new still says when the desktop was last in step with the hub.
  store.team.moveCursor(0, now());
  return { pushed, pulled };
}
