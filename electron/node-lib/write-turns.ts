/**
 * Turns at a library's write lock between the process's threads: the writes people wait for (the
 * main thread's: an edit, a run's results; a scan's writer, a team pull) and a bulk writer on a
 * thread of its own (an import). SQLite's busy handler polls at growing intervals, so a writer
 * committing back to back takes the lock again before a waiting one looks: measured beside one,
 * a person's edit waited 891 ms, and a deferred read-then-write failed with SQLITE_BUSY 233 times
 * in 241 (SQLite cannot wait to turn a read into a write). So each of those writes announces
 * itself here and waits for the bulk writer's transaction to end, and the bulk writer begins none
 * while one is announced (and ends its own early when one arrives: `writersWaiting`).
 *
 * The cells are shared memory: the thread that starts a worker passes `writeTurnsBuffer()` to it,
 * which calls `useWriteTurns` before opening a database.
 */

/**
 * Cells: writes announced by the threads people wait for, bulk transactions under way, and threads
 * copying the log aside (checkpoint-aside.ts: then no connection need copy it on its commits).
 */
const ANNOUNCED = 0;
const BULK = 1;
const ASIDE = 2;
const CELLS = 3;
/**
 * The most a write waits for the bulk writer here (a bulk transaction ends within tens of ms once
 * a write is announced): past it, a writer that stopped without saying so is not waited for, and
 * SQLite's own busy handler takes over.
 */
const MOST_WAIT_MS = 2000;
/** How often a waiting bulk writer looks again, whatever it was told. */
const BULK_LOOK_MS = 50;

let cells = new Int32Array(new SharedArrayBuffer(4 * CELLS));
/**
 * This thread's announced writes and bulk turns under way (cells as above), where the thread that
 * started it can read them: a thread stopped inside one (terminated, out of memory) runs no
 * `finally`, so its starter gives them back (releaseTurnsOf); else every write would wait
 * MOST_WAIT_MS for a bulk turn nobody holds, or the bulk writer wait forever for a write.
 */
let held: Int32Array | undefined;
/** Writes of this thread under way: a nested one neither announces nor waits again. */
let depth = 0;

/** The cells to pass to a worker that writes to the same library (see useWriteTurns). */
export function writeTurnsBuffer(): SharedArrayBuffer {
  return cells.buffer as SharedArrayBuffer;
}

/** In a worker: take turns with the threads of the process that started it. */
export function useWriteTurns(
  buffer: SharedArrayBuffer | undefined,
  heldBuffer?: SharedArrayBuffer,
): void {
  if (buffer) cells = new Int32Array(buffer);
  if (heldBuffer) held = new Int32Array(heldBuffer);
}

/** Cells for a writing worker to count its turns in (useWriteTurns, releaseTurnsOf). */
export function heldTurnsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * CELLS);
}

/**
 * For a writing worker: the cells to put in its workerData (it passes both to useWriteTurns), and
 * what gives back, once it has exited, the turns it held when it stopped.
 */
export function turnsForWorker(): {
  data: { writeTurns: SharedArrayBuffer; heldTurns: SharedArrayBuffer };
  release: () => void;
} {
  const heldTurns = heldTurnsBuffer();
  return {
    data: { writeTurns: writeTurnsBuffer(), heldTurns },
    release: () => releaseTurnsOf(heldTurns),
  };
}

/** After a writing worker has exited: gives back what it held when it stopped. */
export function releaseTurnsOf(heldBuffer: SharedArrayBuffer): void {
  const theirs = new Int32Array(heldBuffer);
  for (const cell of [ANNOUNCED, BULK, ASIDE]) {
    const left = Atomics.exchange(theirs, cell, 0);
    if (left === 0) continue;
    Atomics.sub(cells, cell, left);
    Atomics.notify(cells, cell);
  }
}

/** Counts a turn in the shared cells, and in this thread's own first (see `held`). */
function take(cell: number): void {
  if (held) Atomics.add(held, cell, 1);
  Atomics.add(cells, cell, 1);
}

function giveBack(cell: number): void {
  Atomics.sub(cells, cell, 1);
  if (held) Atomics.sub(held, cell, 1);
  Atomics.notify(cells, cell);
}

/**
 * Waits on a cell; false where this thread may not block. Electron's main process may (its
 * isolate is made with gin's kAllowAtomicsWait, shell/browser/javascript_environment.cc); a thread
 * that may not then leaves the wait to SQLite's busy handler rather than fail its write.
 */
function blocked(cell: number, value: number, ms: number): boolean {
  try {
    Atomics.wait(cells, cell, value, ms);
    return true;
  } catch {
    return false;
  }
}

/** Runs a write people wait for, once no bulk transaction is under way (see above). */
export function announcedWrite<T>(fn: () => T): T {
  if (depth > 0) return fn();
  take(ANNOUNCED);
  depth++;
  try {
    const start = performance.now();
    for (;;) {
      const bulk = Atomics.load(cells, BULK);
      const left = MOST_WAIT_MS - (performance.now() - start);
      if (bulk <= 0 || left <= 0 || !blocked(BULK, bulk, left)) break;
    }
    return fn();
  } finally {
    depth--;
    giveBack(ANNOUNCED);
  }
}

/** Runs a bulk writer's transaction once no other write is announced; it holds off new ones' turns. */
export function bulkTurn<T>(fn: () => T): T {
  if (depth > 0) return fn();
  for (;;) {
    const announced = Atomics.load(cells, ANNOUNCED);
    if (announced > 0) {
      Atomics.wait(cells, ANNOUNCED, announced, BULK_LOOK_MS);
      continue;
    }
    take(BULK);
    // Announced between the look and the mark: theirs is the turn (they may have seen no mark).
    if (Atomics.load(cells, ANNOUNCED) <= 0) break;
    giveBack(BULK);
  }
  depth++;
  try {
    return fn();
  } finally {
    depth--;
    giveBack(BULK);
  }
}

/** A thread of the process starts copying the log aside; call the returned function when it ends. */
export function copyingAside(): () => void {
  take(ASIDE);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    giveBack(ASIDE);
  };
}

/** Whether a thread of the process copies the log aside now (see copyingAside). */
export function copiesAside(): boolean {
  return Atomics.load(cells, ASIDE) > 0;
}

/** Whether a write is waiting for the bulk writer: its transaction should end soon. */
export function writersWaiting(): boolean {
  return Atomics.load(cells, ANNOUNCED) > 0;
}

/** The process's announced writes and bulk turns under way (for tests and diagnostics). */
export function turnsUnderWay(): { announced: number; bulk: number } {
  return { announced: Atomics.load(cells, ANNOUNCED), bulk: Atomics.load(cells, BULK) };
}
