/**
 * A thread that takes a bulk turn (write-turns.test.ts). Flags: 0 it is in its turn, 1 the test
 * says go, 2 it has left its turn. `hold`: holds its turn 100 ms; `after-go`: takes its turn once
 * told to go; `forever`: holds its turn until terminated; `aside`: says it copies the log aside
 * (flag 0) and never ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { bulkTurn, copyingAside, useWriteTurns } from '../../electron/node-lib/write-turns.js';

const {
  turns,
  held,
  flags: buffer,
  mode,
} = workerData as {
  turns: SharedArrayBuffer;
  held: SharedArrayBuffer;
  flags: SharedArrayBuffer;
  mode: 'hold' | 'after-go' | 'forever' | 'aside';
};
useWriteTurns(turns, held);
const flags = new Int32Array(buffer);
const set = (i: number) => {
  Atomics.store(flags, i, 1);
  Atomics.notify(flags, i);
};
if (mode === 'aside') {
  copyingAside();
  set(0);
  Atomics.wait(flags, 1, 0);
}
if (mode === 'after-go') Atomics.wait(flags, 1, 0);
bulkTurn(() => {
  set(0);
  if (mode === 'forever') Atomics.wait(flags, 1, 0);
  if (mode === 'hold') Atomics.wait(flags, 3, 0, 100);
  set(2);
});
parentPort?.close();
