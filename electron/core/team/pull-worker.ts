/** The team pull thread (pull-thread.ts): its own hub client and library connection. */
import { parentPort, workerData } from 'node:worker_threads';
import { useWriteTurns } from '../../node-lib/write-turns.js';
import { openLibraryStore } from '../review/open-library-store.js';
import { HubClient, type HubClientOptions } from './hub-client.js';
import type { PullAnswer, PullRequest } from './pull-thread.js';
import { TeamError } from './team-errors.js';
import { pullChanges } from './team-sync.js';

const port = parentPort;
if (!port) throw new Error('pull-worker must run in a worker thread');
const { file, nativeBinding, hub, writeTurns, heldTurns } = workerData as {
  file: string;
  nativeBinding?: string;
  hub: HubClientOptions;
  writeTurns?: SharedArrayBuffer;
  heldTurns?: SharedArrayBuffer;
};
// Others' changes applied here are writes people wait for (write-turns.ts).
useWriteTurns(writeTurns, heldTurns);
const store = openLibraryStore(file, { nativeBinding });
const client = new HubClient(hub);
// One request at a time, in order (the sync engine runs one sync at a time anyway).
let queue = Promise.resolve();

async function answer(req: PullRequest): Promise<PullAnswer> {
  try {
    return { id: req.id, pulled: await pullChanges(store, client, Date.now) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      id: req.id,
      error: { message, ...(err instanceof TeamError ? { teamCode: err.code } : {}) },
    };
  }
}

port.on('message', (req: PullRequest) => {
  queue = queue.then(async () => {
    if (!req.close) return port.postMessage(await answer(req));
    await client.close();
    store.close();
    port.close();
  });
});
