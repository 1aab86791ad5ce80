import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireLibraryLock,
  LibraryBusyError,
  libraryLockState,
} from '../../../../electron/core/store/library-lock.js';
import { tempDir } from '../../../support/temp-dir.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  tmp = await tempDir('labeldesk-lock-');
});
afterEach(() => tmp.remove());

describe('the library lock', () => {
  it('has one holder; a second taker is refused with who holds it, and gets it after release', async () => {
    expect(libraryLockState(tmp.dir)).toEqual({ held: false });
    const first = await acquireLibraryLock(tmp.dir, { command: 'labeldesk label /photos' });
    expect(first.holder).toMatchObject({ pid: process.pid, command: 'labeldesk label /photos' });

    const state = libraryLockState(tmp.dir);
    expect(state).toEqual({ held: true, holder: first.holder });
    const refused = await acquireLibraryLock(tmp.dir, { command: 'second' }).catch((e) => e);
    expect(refused).toBeInstanceOf(LibraryBusyError);
    expect(refused).toMatchObject({ code: 'library_busy', holder: first.holder });
    expect((refused as Error).message).toContain(
      `\`labeldesk label /photos\` (pid ${process.pid}, since`,
    );
    expect((refused as Error).message).toMatch(/Reading \(plan, status, export\) works meanwhile/);

    first.release();
    first.release(); // idempotent
    expect(existsSync(join(tmp.dir, 'library.lock.json'))).toBe(false);
    expect(libraryLockState(tmp.dir)).toEqual({ held: false });
    const second = await acquireLibraryLock(tmp.dir, { command: 'second' });
    expect(JSON.parse(readFileSync(join(tmp.dir, 'library.lock.json'), 'utf8'))).toMatchObject({
      command: 'second',
    });
    second.release();
  });

  /**
   * A second run that waits for the lock as long as it takes, noting whom it is told it waits for.
   * Its pauses are counted, not timed: `tried(n)` resolves once it has tried n more times.
   */
  const waitForever = (dir: string) => {
    const waits: (string | undefined)[] = [];
    let tries = 0;
    const goals: { at: number; done: () => void }[] = [];
    const tried = (n: number) => new Promise<void>((done) => goals.push({ at: tries + n, done }));
    const waiting = acquireLibraryLock(dir, {
      command: 'second',
      waitMs: Number.POSITIVE_INFINITY,
      onWait: (h) => waits.push(h?.command),
      sleep: () => {
        tries++;
        for (const g of goals) if (g.at === tries) g.done();
        return new Promise((r) => setImmediate(r));
      },
    });
    return { waits, waiting, tried };
  };

  it('a waiter says once whom it waits for and takes the lock when it is released', async () => {
    const first = await acquireLibraryLock(tmp.dir, { command: 'first' });
    const { waits, waiting, tried } = waitForever(tmp.dir);
    let got = false;
    void waiting.then(() => (got = true));
    await tried(10);
    expect(got).toBe(false);
    first.release();
    const second = await waiting;
    expect(second.holder.command).toBe('second');
    expect(waits).toEqual(['first']);
    second.release();
  });

  it('a waiter that finds the lock taken before its note is written still names the holder', async () => {
    const first = await acquireLibraryLock(tmp.dir, { command: 'first' });
    // The moment between the holder's lock and its note (two runs started together).
    const note = join(tmp.dir, 'library.lock.json');
    renameSync(note, `${note}.later`);
    const { waits, waiting, tried } = waitForever(tmp.dir);
    renameSync(`${note}.later`, note);
    await tried(2);
    first.release();
    (await waiting).release();
    expect(waits).toEqual(['first']);
  });

  it('a bounded wait ends with LibraryBusyError; an aborted wait ends with the abort', async () => {
    const first = await acquireLibraryLock(tmp.dir, { command: 'first' });
    const timedOut = await acquireLibraryLock(tmp.dir, {
      command: 'second',
      waitMs: 150,
      retryMs: 20,
    }).catch((e) => e);
    expect(timedOut).toBeInstanceOf(LibraryBusyError);
    expect((timedOut as Error).message).toMatch(/\(waited \d+ s\)/);

    const abort = new AbortController();
    const waiting = acquireLibraryLock(tmp.dir, {
      command: 'third',
      waitMs: Number.POSITIVE_INFINITY,
      retryMs: 20,
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(new Error('interrupted')), 50);
    await expect(waiting).rejects.toThrow('interrupted');
    first.release();
  });

  it('ignores a note left by a holder that died: it is never reported as the holder', async () => {
    const { writeFileSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    // pid 2^22 + 1 is above Linux's pid_max, so no process has it.
    writeFileSync(
      join(tmp.dir, 'library.lock.json'),
      JSON.stringify({ pid: 4_194_305, command: 'dead', since: 0, host: hostname() }),
    );
    expect(libraryLockState(tmp.dir)).toEqual({ held: false });
    const lock = await acquireLibraryLock(tmp.dir, { command: 'alive' });
    expect(libraryLockState(tmp.dir)).toEqual({ held: true, holder: lock.holder });
    lock.release();
  });
});
