/**
 * Keeps a library in step with its project while it runs (the CLI's `team sync --watch`, later
 * the app's main process): a sync runs when the hub says a member pushed (LISTEN/NOTIFY), when
 * this library's outbox has something (checked often: a cheap indexed read), and on a slower
 * poll as a fallback (a lost notification, a hub that was offline). One sync at a time; a wake
 * during a sync runs one more after it.
 */
import type { LibraryStore } from '../store/store-types.js';
import type { HubClient } from './hub-client.js';
import { TeamError } from './team-errors.js';
import { syncChanges } from './team-sync.js';

export interface SyncEngineOptions {
  store: LibraryStore;
  hub: Pick<HubClient, 'push' | 'pull' | 'listen'>;
  now: () => number;
  /** How often the outbox is checked for a person's new changes. */
  outboxMs?: number;
  /** The fallback poll of the hub. */
  pollMs?: number;
  /** Told after each sync that moved something, and when the hub goes away or comes back. */
  onSync?: (r: { pushed: number; pulled: number }) => void;
  onOnline?: (online: boolean, reason: string | null) => void;
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
  const setOnline = (value: boolean, reason: string | null) => {
    if (online !== value) o.onOnline?.(value, reason);
    online = value;
  };
  const once = async () => {
    try {
      if (!listening) {
        await o.hub.listen(() => wake());
        listening = true;
      }
      const r = await syncChanges(o.store, o.hub, o.now);
      await o.also?.sync();
      setOnline(true, null);
      if (r.pushed || r.pulled) o.onSync?.(r);
    } catch (err) {
      if (!(err instanceof TeamError) || err.code !== 'hub_unreachable') throw err;
      setOnline(false, err.message);
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
      .catch((err: unknown) => {
        stopped = true;
        clearInterval(outbox);
        clearInterval(poll);
        o.onError(err);
      })
      .finally(() => (running = undefined));
    return running;
  };
  const outbox = setInterval(() => {
    if (!running && (o.store.team.outbox(1).length > 0 || o.also?.waiting())) void wake();
  }, o.outboxMs ?? 200);
  const poll = setInterval(() => void wake(), o.pollMs ?? 10_000);
  return {
    started: wake(),
    async stop() {
      stopped = true;
      clearInterval(outbox);
      clearInterval(poll);
      await running;
    },
  };
}
