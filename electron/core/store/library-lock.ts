/**
 * One library, one writer: a run that sends media for analysis (the CLI's `label`, the app's runs)
 * holds this lock for as long as it may write results. Reading (plan, status, export, browsing)
 * never takes it.
 *
 * The lock is a SQLite write lock (BEGIN IMMEDIATE) on an empty side file, `library.lock`, held
 * open by the holder. It is a kernel byte-range lock, so the kernel drops it when the holder's
 * process ends in any way, kill -9 included: a dead holder never leaves the library locked, and
 * there is no stale file to guess about. Who holds it (pid, command, since) is written beside it
 * in `library.lock.json` once the lock is held, and is only ever shown, never trusted for locking.
 */
import Database from 'better-sqlite3';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface LockHolder {
  pid: number;
  /** What is writing, e.g. "labeldesk label ~/Pictures". */
  command: string;
  /** Epoch ms when the lock was taken. */
  since: number;
  host: string;
}

export interface LibraryLock {
  readonly holder: LockHolder;
  /** Idempotent; the lock also goes when the process ends. */
  release(): void;
}

export interface AcquireOptions {
  command: string;
  /** How long to wait for the current holder: 0 (the default) refuses at once; Infinity waits. */
  waitMs?: number;
  /** Called once when the lock is held by someone else and we are about to wait. */
  onWait?: (holder: LockHolder | undefined) => void;
  signal?: AbortSignal;
  /** How often a waiter tries again. */
  retryMs?: number;
  /** The pause between tries (default: a timer): a test counts tries instead of waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Another process (or another part of this one) is writing to the library. */
export class LibraryBusyError extends Error {
  override readonly name = 'LibraryBusyError';
  readonly code = 'library_busy';

  constructor(
    readonly holder: LockHolder | undefined,
    waitedMs: number,
  ) {
    super(
      `${holder ? describeHolder(holder) : 'Another process'} is labelling this library` +
        `${waitedMs > 0 ? ` (waited ${Math.round(waitedMs / 1000)} s)` : ''}. ` +
        'Only one run may write to a library at a time: wait for it to finish or stop it, ' +
        'or pass --wait to queue behind it. Reading (plan, status, export) works meanwhile.',
    );
  }
}

export function describeHolder(h: LockHolder): string {
  const where = h.host === hostname() ? '' : ` on ${h.host}`;
  return `\`${h.command}\` (pid ${h.pid}${where}, since ${new Date(h.since).toISOString()})`;
}

const lockFile = (home: string) => join(home, 'library.lock');
const holderFile = (home: string) => join(home, 'library.lock.json');

/** Takes the write lock now, or returns undefined when it is held. */
function tryLock(home: string): Database.Database | undefined {
  const db = new Database(lockFile(home));
  try {
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw err;
  }
}

/** Whether `pid` runs here; a holder on another host (a shared folder) is taken at its word. */
function alive(h: LockHolder): boolean {
  if (h.host !== hostname()) return true;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/** The holder's note, when it belongs to a live process (a dead holder's note may linger). */
function readHolder(home: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(holderFile(home), 'utf8')) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.command !== 'string') return undefined;
    const holder = { pid: h.pid, command: h.command, since: Number(h.since), host: String(h.host) };
    return alive(holder) ? holder : undefined;
  } catch {
    return undefined; // not written yet by a holder that has just taken the lock
  }
}

export type LockState = { held: false } | { held: true; holder: LockHolder | undefined };

/** Whether the library's lock is held, and by whom when that is known. Never waits. */
export function libraryLockState(home: string): LockState {
  const probe = tryLock(home);
  if (probe) {
    probe.close();
    return { held: false };
  }
  return { held: true, holder: readHolder(home) };
}

function holdLock(home: string, db: Database.Database, command: string): LibraryLock {
  const holder: LockHolder = { pid: process.pid, command, since: Date.now(), host: hostname() };
  const temp = `${holderFile(home)}.${process.pid}`;
  writeFileSync(temp, `${JSON.stringify(holder)}\n`);
  renameSync(temp, holderFile(home));
  let held = true;
  return {
    holder,
    release() {
      if (!held) return;
      held = false;
      // Removed while still locked, so it can never delete the next holder's file.
      if (readHolder(home)?.pid === process.pid) rmSync(holderFile(home), { force: true });
      db.close(); // ends the transaction, which releases the lock
    },
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });

/**
 * Takes the library's write lock, waiting up to `waitMs` for the current holder. Throws
 * LibraryBusyError (with the holder) when it is still held after that.
 */
export async function acquireLibraryLock(
  home: string,
  options: AcquireOptions,
): Promise<LibraryLock> {
  const waitMs = options.waitMs ?? 0;
  const started = Date.now();
  let told = false;
  let tries = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const db = tryLock(home);
    if (db) return holdLock(home, db, options.command);
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new LibraryBusyError(readHolder(home), waited);
    if (!told) {
      // A holder that took the lock a moment ago may not have written its note yet (two runs
      // started together): the first retry gives it time, so the line can say whom it waits for.
      const holder = readHolder(home);
      if (holder || tries++ > 0) {
        told = true;
        options.onWait?.(holder);
      }
    }
    await (options.sleep ?? sleep)(
      Math.min(options.retryMs ?? 250, waitMs - waited),
      options.signal,
    );
  }
}
