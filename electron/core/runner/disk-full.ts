/**
 * A full disk while a paid answer is being saved: the answer is kept (in memory, by the task that
 * holds it) and the save is tried again until space returns, so the file is never failed and sent
 * (and charged) a second time. Only a hard stop gives up, leaving the file uncertain.
 */

/** How often a save refused for lack of space is tried again. */
export const DISK_RETRY_MS = 2_000;

/** SQLite's SQLITE_FULL (its journal or database could not grow) or the OS's ENOSPC. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}

/** Gave up saving a paid answer because the disk stayed full until the run was aborted. */
export class DiskFullError extends Error {
  override readonly name = 'DiskFullError';
  readonly code = 'disk_full';
}

export interface DiskState {
  /** Answers waiting for space right now. */
  readonly waiting: number;
  /** True from the first refused save until a save succeeds again. */
  readonly full: boolean;
}

/** Tracks the saves waiting for space and says when the disk fills up and when space is back. */
export class DiskWatch implements DiskState {
  waiting = 0;
  full = false;

  constructor(private readonly onChange: (state: DiskState) => void = () => undefined) {}

  /** A write was refused for lack of space. */
  refused(): void {
    if (this.full) return;
    this.full = true;
    this.onChange(this);
  }

  /** A write succeeded: there is space again. */
  wrote(): void {
    if (!this.full) return;
    this.full = false;
    this.onChange(this);
  }

  /**
   * Runs `write` until it is not refused for lack of space, waiting DISK_RETRY_MS between tries;
   * rejects with DiskFullError only when `signal` aborts first.
   */
  async retry<T>(
    write: () => T | Promise<T>,
    sleep: (ms: number, signal: AbortSignal) => Promise<void>,
    signal: AbortSignal,
  ): Promise<T> {
    let counted = false;
    try {
      for (;;) {
        try {
          const value = await write();
          if (counted) this.waiting--;
          counted = false;
          this.wrote();
          return value;
        } catch (err) {
          if (!isDiskFull(err)) throw err;
          if (!counted) this.waiting++;
          counted = true;
          this.refused();
          await sleep(DISK_RETRY_MS, signal).catch(() => {
            throw new DiskFullError(
              'The answer was paid for but could not be saved: the disk holding the library is full.',
              { cause: err },
            );
          });
        }
      }
    } finally {
      if (counted) this.waiting--;
    }
  }
}
