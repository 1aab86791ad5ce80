/** Lowers its own priority and answers its nice value and its main thread's (background-thread.test.ts). */
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../electron/node-lib/background-thread.js';
import { niceOf } from './thread-nice.js';

lowerThreadPriority();
parentPort?.postMessage({
  thread: niceOf('/proc/thread-self/stat'),
  main: niceOf(`/proc/${process.pid}/stat`),
});
parentPort?.close();
