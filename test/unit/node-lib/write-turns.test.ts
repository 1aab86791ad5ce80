/**
 * Turns at the write lock across threads (write-turns.ts): a write people wait for runs only
 * after the bulk turn under way has ended; the bulk writer takes no turn while a write is
 * announced; a thread stopped inside its turn (or while copying the log aside) has it given back by
 * its starter.
 */
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import {
  announcedWrite,
  copiesAside,
  heldTurnsBuffer,
  releaseTurnsOf,
  turnsUnderWay,
  writeTurnsBuffer,
} from '../../../electron/node-lib/write-turns.js';

type Mode = 'hold' | 'after-go' | 'forever' | 'aside';

function bulkThread(mode: Mode) {
  const flags = new Int32Array(new SharedArrayBuffer(16));
  const held = heldTurnsBuffer();
  const worker = new Worker(new URL('../../support/write-turns-thread.ts', import.meta.url), {
    workerData: { turns: writeTurnsBuffer(), held, flags: flags.buffer, mode },
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      releaseTurnsOf(held);
      resolve();
    }),
  );
  /** Resolves once flag `i` is set (the test's thread must not block: the worker needs a turn). */
  const flagged = async (i: number) => {
    while (Atomics.load(flags, i) === 0) await new Promise((r) => setTimeout(r, 1));
  };
  return { worker, flags, exited, flagged };
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

it('runs an announced write only once the bulk turn under way has ended', async () => {
  const t = bulkThread('hold');
  await t.flagged(0);
  const leftBefore = announcedWrite(() => Atomics.load(t.flags, 2));
  expect(leftBefore).toBe(1);
  await t.exited;
  expect(turnsUnderWay()).toEqual({ announced: 0, bulk: 0 });
});

it('gives the bulk writer no turn while a write is announced', async () => {
  const t = bulkThread('after-go');
  const inTurnMeanwhile = announcedWrite(() => {
    Atomics.store(t.flags, 1, 1);
    Atomics.notify(t.flags, 1);
    pause(100);
    return Atomics.load(t.flags, 0);
  });
  expect(inTurnMeanwhile).toBe(0);
  await t.flagged(2);
  await t.exited;
});

it('gives back the turn of a thread stopped inside it', async () => {
  const t = bulkThread('forever');
  await t.flagged(0);
  expect(turnsUnderWay().bulk).toBe(1);
  await t.worker.terminate();
  await t.exited;
  expect(turnsUnderWay()).toEqual({ announced: 0, bulk: 0 });
  expect(announcedWrite(() => 'written')).toBe('written');
});

it('gives back the copy aside of a thread stopped while it copies', async () => {
  const t = bulkThread('aside');
  await t.flagged(0);
  expect(copiesAside()).toBe(true);
  await t.worker.terminate();
  await t.exited;
  expect(copiesAside()).toBe(false);
});
