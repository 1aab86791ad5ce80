/**
 * Ctrl-C during `label`: the first press stops cleanly (nothing new is sent, the answers on their
 * way are awaited and saved, so nothing becomes uncertain); a second press, or the end of the grace
 * period, aborts at once. SIGTERM is treated the same way. Whatever is under way (a scan, hashing,
 * models loading), the process is gone QUIT_DEADLINE_MS after the first press.
 */
import { QUIT_DEADLINE_MS } from '../application/quit-deadline.js';

/**
 * How long a clean stop waits for the answers already on their way: short, because quitting
 * means quitting. An answer later than this leaves its file uncertain (never sent again unless
 * --retry-uncertain), so nothing is charged twice.
 */
export const GRACE_MS = 1500;
/** Exit code of an interrupted command. */
const INTERRUPTED = 130;

export interface Interruptions {
  /** Aborted by the first Ctrl-C: stop sending. */
  readonly stop: AbortSignal;
  /** Aborted by the second Ctrl-C or after the grace period: cut what is on its way. */
  readonly abort: AbortSignal;
  /** True while a run sends files (a stop then has answers to wait for). */
  running: boolean;
  /** A Ctrl-C, from a signal or from readline's own handling of the terminal. */
  press(): void;
  dispose(): void;
}

export function interruptions(
  say: (text: string) => void,
  graceMs = GRACE_MS,
  overrun: () => void = () => process.exit(INTERRUPTED),
): Interruptions {
  const stop = new AbortController();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const self: Interruptions = {
    stop: stop.signal,
    abort: abort.signal,
    running: false,
    press() {
      if (!stop.signal.aborted) {
        stop.abort(new Error('stopped'));
        // Unref'd: a command that ends sooner is not held; one that does not is ended here.
        deadline = setTimeout(overrun, QUIT_DEADLINE_MS);
        deadline.unref();
        if (!self.running) return;
        say(
          `Stopping: no new file is sent; waiting up to ${Math.round(graceMs / 1000)} s for the answers on their way (Ctrl-C again to stop at once).`,
        );
        timer = setTimeout(() => abort.abort(new Error('interrupted')), graceMs);
        timer.unref();
        return;
      }
      if (abort.signal.aborted) return;
      if (self.running) say('Stopping now: answers still on their way are marked uncertain.');
      abort.abort(new Error('interrupted'));
    },
    dispose() {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
  const onSignal = () => self.press();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return self;
}
