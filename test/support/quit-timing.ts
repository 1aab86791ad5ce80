/** Quitting a real process as a person or a system does, with the time it took to be gone. */
import type { CliProcess } from './cli-run.js';

/** The promise under test: gone this long after SIGTERM/SIGINT, whatever it was doing. */
export const QUIT_WITHIN_MS = 3000;

export async function quitTimed(
  run: CliProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null }> {
  const start = performance.now();
  run.child.kill(signal);
  // Never hang the suite: a process still there after 20 s is killed and the test fails on time.
  const killer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
  const ended = await run.exited;
  clearTimeout(killer);
  return { ms: performance.now() - start, ...ended };
}
