/**
 * libvips keeps one error buffer for the whole process, so when operations fail at the same
 * moment a message may be another file's, or torn (lovell/sharp#902, libvips#707). Operations run
 * through `vipsShared` at the same time as one another; a failed one is done once more through
 * `vipsAlone`, which waits until no shared operation is under way and holds new ones back until
 * it has ended, so the message kept with the file is its own. Only failures pay for this.
 */
let shared = 0;
let whenNoneShared: (() => void) | null = null;
/** Settles when the operation alone under way, if any, has ended; new shared ones wait for it. */
let aloneGate: Promise<void> | null = null;
let aloneChain: Promise<unknown> = Promise.resolve();

/** Runs `op` beside other shared operations, but never beside one running alone. */
export async function vipsShared<T>(op: () => Promise<T>): Promise<T> {
  while (aloneGate) await aloneGate;
  shared++;
  try {
    return await op();
  } finally {
    shared--;
    if (shared === 0) whenNoneShared?.();
  }
}

/** Runs `op` once every operation given here before it, and every shared one under way, has ended. */
export function vipsAlone<T>(op: () => Promise<T>): Promise<T> {
  const run = aloneChain.then(async () => {
    let open!: () => void;
    aloneGate = new Promise<void>((resolve) => (open = resolve));
    try {
      if (shared > 0) await new Promise<void>((resolve) => (whenNoneShared = resolve));
      whenNoneShared = null;
      return await op();
    } finally {
      aloneGate = null;
      open();
    }
  });
  aloneChain = run.catch(() => undefined);
  return run;
}
