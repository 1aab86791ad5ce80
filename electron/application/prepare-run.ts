/**
 * How a run begins, the same for the app's Runs screen and `labeldesk label`: the library's one
 * writer lock first (before a service may analyse on the library's data), then the paid answers
 * kept unread are read again (no network: a file they now label is reused, not paid twice), then
 * the service the run talks to. Where the lock comes from (wait or refuse) and which service is
 * connected are the caller's; the order is this use-case's.
 */
import type { OriginRereadSummary } from '../core/runner/reread-assumed-origin.js';
import type { RereadSummary } from '../core/runner/reread-raw-answers.js';
import type { RunnerStore } from '../core/runner/runner-store.js';

export interface RunStart<S> {
  /** What re-reading the kept answers did. */
  reread: RereadSummary;
  /** What `connect` gave: the service port and catalog the run plans against. */
  service: S;
}

export interface RunStartSteps<S> {
  /** Takes the writer lock (the caller keeps and releases it); false: stopped while waiting. */
  lock(): Promise<boolean>;
  /** Told what re-reading the kept answers did, before the service is connected. */
  reread?(summary: RereadSummary): void;
  /** Told what reading again the answers read with an assumed box origin did (issue 23). */
  originReread?(summary: OriginRereadSummary): void;
  /** Connects the service the run sends to, once the lock is held and kept answers are read. */
  connect(): Promise<S>;
}

/** Undefined when the lock was not taken (stopped while waiting): nothing else was done. */
export async function prepareRun<S>(
  store: RunnerStore,
  steps: RunStartSteps<S>,
): Promise<RunStart<S> | undefined> {
  if (!(await steps.lock())) return undefined;
  // Loaded only when answers are kept unread: re-reading parses the stored catalog with its
  // schema, and `label`'s start-up loads no schema library (cli-startup test).
  const reread =
    store.rawAnswers.countUnread() === 0
      ? { read: 0, kept: 0 }
      : (await import('../core/runner/reread-raw-answers.js')).rereadRawAnswers(store);
  steps.reread?.(reread);
  // Answers read while the box origin was undecided, read again once a person confirmed it (or
  // read back when a person chose the other origin than the boxes decided).
  if (store.rawAnswers.countOriginPending() > 0 || store.rawAnswers.countOriginDecided() > 0)
    steps.originReread?.(
      (await import('../core/runner/reread-assumed-origin.js')).rereadOrigins(store),
    );
  return { reread, service: await steps.connect() };
}
