/** The import's thread lowers its own priority, and only its own: the UI's thread keeps its. */
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { niceOf } from '../../support/thread-nice.js';

it.runIf(process.platform === 'linux')('lowers the calling thread alone', async () => {
  const before = niceOf(`/proc/${process.pid}/stat`);
  const worker = new Worker(new URL('../../support/priority-thread.ts', import.meta.url));
  const seen = await new Promise<{ thread: number; main: number }>((resolve) =>
    worker.once('message', resolve),
  );
  // Below normal (10), or where it was if lower already.
  expect(seen.thread).toBe(Math.max(before, 10));
  expect(seen.main).toBe(before);
  expect(niceOf(`/proc/${process.pid}/stat`)).toBe(before);
});
