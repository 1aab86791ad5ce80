/**
 * libvips keeps one error buffer for the whole process, so when operations fail at the same
 * moment a message may be another file's, or torn (lovell/sharp#902, libvips#707). A failed
 * operation is done once more through here, one at a time, so the message kept with the file is
 * its own. Only failures pay for this.
 */
let chain: Promise<unknown> = Promise.resolve();

/** Runs `op` once every operation given here before it has ended. */
export function vipsAlone<T>(op: () => Promise<T>): Promise<T> {
  const run = chain.then(op);
  chain = run.catch(() => undefined);
  return run;
}
