/**
 * What waits for the first screen at start. The embedded service's start is ~0.3 s of this
 * thread's CPU (its modules, keys and server); begun beside the first page it delayed the page's
 * own HTML, script and first calls (a warm start painted ~0.3 s later). So it begins once the
 * first grid page is answered and painted, or at once when any call other than the first screen's
 * reads needs it; without a UI, after `askByMs`. The folders' rescan waits likewise (STARTUP_TIMES).
 */
import type { CallName, Handlers } from '../shared/contract/index.js';
import { StartupGate, type StartupGateTimes } from './startup-gate.js';

/** Rescanning 100k files competes with the first paint: it waits (startup-gate.ts). */
const RESCAN_TIMES: StartupGateTimes = { delayMs: 1500, settleMs: 500, latestMs: 6000 };
const SERVICE_TIMES: StartupGateTimes = {
  delayMs: 0,
  askByMs: 3000,
  settleMs: 300,
  latestMs: 6000,
};

/** The first screen's calls that need no service: any other call starts it first. */
const NO_SERVICE_NEEDED: ReadonlySet<CallName> = new Set<CallName>([
  'app.info',
  'service.state',
  'team.state',
  'folders.list',
  'runs.current',
  'runs.history',
  'library.page',
  'library.ids',
  'library.item',
  'library.minScore',
  'library.classCounts',
]);

export interface FirstScreen {
  /** Cancels what has not begun (the app closing). */
  cancel(): void;
}

/** Wraps the handlers so the first grid page and the other calls open the gates. */
export function afterFirstScreen(
  handlers: Handlers,
  work: {
    rescan: () => void;
    startService: () => void;
    /** The first page's answer: the library's totals wait for it (library-view-client.ts). */
    holdTotals?: (until: Promise<unknown>) => void;
  },
): FirstScreen {
  const service = new StartupGate(SERVICE_TIMES, work.startService);
  // What the rescan finds may be labelled at once (auto-label): the service has begun by then.
  const rescan = new StartupGate(RESCAN_TIMES, () => {
    service.openNow();
    work.rescan();
  });
  const wrapped = handlers as Record<CallName, (input: unknown) => unknown>;
  for (const name of Object.keys(handlers) as CallName[]) {
    const handle = wrapped[name];
    wrapped[name] = NO_SERVICE_NEEDED.has(name)
      ? handle
      : (input) => {
          service.openNow();
          return handle(input);
        };
  }
  const page = wrapped['library.page'];
  let first = true;
  wrapped['library.page'] = (input) => {
    rescan.pageAsked();
    service.pageAsked();
    const answer = Promise.resolve(page(input)).finally(() => {
      rescan.pageAnswered();
      service.pageAnswered();
    });
    if (first) work.holdTotals?.(answer);
    first = false;
    return answer;
  };
  const add = wrapped['folders.add'];
  // Before a folder is added, so the rescan lists only the folders there were.
  wrapped['folders.add'] = (input) => {
    rescan.openNow();
    return add(input);
  };
  return {
    cancel() {
      rescan.cancel();
      service.cancel();
    },
  };
}
