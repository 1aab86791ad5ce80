import { messageOf } from '../shared/error-message.js';
/**
 * Quitting means quitting: the first request (a signal, the last window closed) closes the
 * application, which aborts whatever is under way (scans, hashing, runs, clip jobs, exports,
 * proxies) and closes the library last, then ends the process. Should closing still take longer
 * than the deadline, the process ends anyway: every write is its own SQLite transaction and runs
 * record what they sent before sending, so the next start resumes or redoes what was cut short,
 * as after a crash. A second request ends the process at once.
 */

/** The promise made to a person: the app is gone this long after they asked, in every state. */
export const QUIT_DEADLINE_MS = 2500;

export interface QuitOptions {
  close(): Promise<void>;
  exit(code: number): void;
  log(line: string): void;
  deadlineMs?: number;
}

/** Exit codes: 0 closed cleanly, 1 closing overran the deadline, 130 asked twice. */
export function quitter(o: QuitOptions): () => void {
  let asked = false;
  return () => {
    if (asked) return o.exit(130);
    asked = true;
    const deadlineMs = o.deadlineMs ?? QUIT_DEADLINE_MS;
    const timer = setTimeout(() => {
      o.log(`Closing took over ${deadlineMs / 1000} s; stopping now. The next start resumes.`);
      o.exit(1);
    }, deadlineMs);
    void o.close().then(
      () => {
        clearTimeout(timer);
        o.exit(0);
      },
      (err: unknown) => {
        clearTimeout(timer);
        o.log(`Closing failed: ${messageOf(err)}`);
        o.exit(1);
      },
    );
  };
}

/** Calls `quit` on SIGINT and SIGTERM (each time: the second one ends at once). */
export function quitOnSignals(quit: () => void): () => void {
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
  return () => {
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
  };
}
