/**
 * Keeps a library in step with its project while it runs (the CLI's `team sync --watch`, later
 * the app's main process): a sync runs when the hub says a member pushed (LISTEN/NOTIFY), when
 * this library's outbox has something (checked often: a cheap indexed read), and on a slower
 * poll as a fallback (a lost notification, a hub that was offline). One sync at a time; a wake
 * during a sync runs one more after it; a save made during a sync is pushed beside it.
 */
import type { TeamApplyPort } from '../store/store-ports.js';
import type { HubClient } from './hub-client.js';
import { TeamError } from './team-errors.js';
import { pushOutbox, syncChanges } from './team-sync.js';

export interface SyncEngineOptions {
  store: TeamApplyPort;
  hub: Pick<HubClient, 'push' | 'pull' | 'listen'>;
  now: () => number;
  /**
   * How often the outbox is checked for a person's new changes (default 50 ms: a save waits at
   * most this long to go out, for a read of one row of a partial index).
   */
  outboxMs?: number;
  /** The fallback poll of the hub. */
  pollMs?: number;
  /** Told after each sync that moved something, and when the hub goes away or comes back. */
  onSync?: (r: { pushed: number; pulled: number }) => void;
  onOnline?: (online: boolean, reason: string | null) => void;
  /**
   * How a sync pulls and applies the hub's changes (default: here, in time slices). The app's
   * engine pulls on a thread of its own (pull-thread.ts), so its event loop never waits on it.
   */
  pull?: () => Promise<number>;
  /** More to sync after the changes (review marks), and whether it has something waiting. */
  also?: { sync(): Promise<unknown>; waiting(): boolean };
  /** A failure that is not the hub being away (a refusal, a damaged library): the engine stops. */
  onError: (err: unknown) => void;
}

export interface SyncEngine {
  /** Resolves when the first sync has run (online or not). */
  started: Promise<void>;
  stop(): Promise<void>;
}

export function startSyncEngine(o: SyncEngineOptions): SyncEngine {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let online: boolean | undefined;
  let listening = false;
  let pushQueue: Promise<unknown> = Promise.resolve();
  let pushingNow: Promise<void> | undefined;
  const setOnline = (value: boolean, reason: string | null) => {
    if (online !== value) o.onOnline?.(value, reason);
    online = value;
  };
  let offlineAt = 0;
  const offline = (err: unknown) => {
    if (!(err instanceof TeamError) || err.code !== 'hub_unreachable') throw err;
    offlineAt = o.now();
    setOnline(false, err.message);
  };
  const fail = (err: unknown) => {
    stopped = true;
    clearInterval(outbox);
    clearInterval(poll);
    o.onError(err);
  };
  /** One push at a time, in the outbox's order, whichever lane asks. */
  const push = (): Promise<number> => {
    const pushed = pushQueue.then(() => pushOutbox(o.store, o.hub));
    pushQueue = pushed.catch(() => undefined);
    return pushed;
  };
  const once = async () => {
    try {
      if (!listening) {
        await o.hub.listen(() => wake());
        listening = true;
      }
      const r = await syncChanges(o.store, o.hub, o.now, push, o.pull);
      await o.also?.sync();
      setOnline(true, null);
      if (r.pushed || r.pulled) o.onSync?.(r);
    } catch (err) {
      offline(err);
    }
  };
  const wake = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again && !stopped);
    })()
      .catch(fail)
      .finally(() => (running = undefined));
    return running;
  };
  // A save made while a sync pulls goes out at once, beside the pull, not after it: with a busy
  // team, a sync is nearly always pulling someone's change.
  const pushBeside = () => {
    pushingNow = push()
      .then((pushed) => {
        setOnline(true, null);
        if (pushed) o.onSync?.({ pushed, pulled: 0 });
      }, offline)
      .catch(fail)
      .finally(() => (pushingNow = undefined));
  };
  const outbox = setInterval(() => {
    const changesWaiting = o.store.team.outbox(1).length > 0;
    if (stopped || pushingNow || (!changesWaiting && !o.also?.waiting())) return;
    // A hub that was away is tried again at most once a second for a save (and at each poll).
    if (online === false && o.now() - offlineAt < 1000) return;
    // Marks alone wait for the running sync, which syncs them after its changes.
    if (running) {
      if (changesWaiting) pushBeside();
    } else void wake();
  }, o.outboxMs ?? 50);
  const poll = setInterval(() => void wake(), o.pollMs ?? 10_000);
  return {
    started: wake(),
    async stop() {
      stopped = true;
      clearInterval(outbox);
      clearInterval(poll);
      await running;
      await pushingNow;
    },
  };
}
