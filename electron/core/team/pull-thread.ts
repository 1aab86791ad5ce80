/**
 * Pulls and applies the hub's changes on a thread of its own, with its own hub connection and its
 * own connection to the library file (as the scan's media writer does): the 50,000 changes of a
 * day offline are read, parsed and written there, and the main process's event loop (the app's
 * review and grid) never waits on them. The thread applies exactly as `pullChanges` does here, a
 * slice per transaction with its cursor, so a person's save waits at most one slice for the lock.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteNativeBinding } from '../../node-lib/sqlite.js';
import { workerScript } from '../../node-lib/worker-script.js';
import { turnsForWorker } from '../../node-lib/write-turns.js';
import type { HubClientOptions } from './hub-client.js';
import { TeamError, type TeamErrorCode } from './team-errors.js';

export interface PullRequest {
  id: number;
  close?: boolean;
}

export interface PullAnswer {
  id: number;
  pulled?: number;
  /** A TeamError keeps its code (the sync engine tells a hub away from a refusal by it). */
  error?: { message: string; teamCode?: TeamErrorCode };
}

export interface PullThread {
  /** Pulls and applies everything after the library's cursor; how many changes came. */
  pull(): Promise<number>;
  close(): Promise<void>;
}

export interface PullThreadOptions {
  /** The library database (another connection to it). */
  file: string;
  hub: HubClientOptions;
}

/**
 * A pull thread for the library at `file`, or undefined where it cannot run (an in-memory
 * library, tests running the TypeScript source, a bundle without the script): the caller then
 * pulls on its own thread, in time slices.
 */
export function startPullThread(o: PullThreadOptions): PullThread | undefined {
  if (o.file === '' || o.file === ':memory:') return undefined;
  const script = workerScript(import.meta.url, 'pull-worker.js');
  if (!existsSync(script)) return undefined;
  const turns = turnsForWorker();
  const worker = new Worker(script, {
    workerData: {
      file: o.file,
      nativeBinding: sqliteNativeBinding(),
      hub: o.hub,
      ...turns.data,
    },
  });
  // Terminated inside a write, it could not give its turn back itself.
  worker.once('exit', turns.release);
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: unknown) => void }>();
  let nextId = 1;
  let gone: Error | undefined;
  const failAll = (err: Error) => {
    gone = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (a: PullAnswer) => {
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    if (a.error === undefined) p.resolve(a.pulled ?? 0);
    else if (a.error.teamCode) p.reject(new TeamError(a.error.teamCode, a.error.message));
    else p.reject(new Error(a.error.message));
  });
  worker.on('error', (err) => failAll(err));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => failAll(new Error('The team pull thread has ended.')));
  return {
    pull() {
      if (gone) return Promise.reject(gone);
      const id = nextId++;
      return new Promise<number>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id } satisfies PullRequest);
      });
    },
    async close() {
      if (gone) return;
      worker.postMessage({ id: 0, close: true } satisfies PullRequest);
      // A thread that does not end in time (a hub that does not answer) is stopped: a pull cut
      // short loses nothing (the cursor moves with each committed slice).
      const timer = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
