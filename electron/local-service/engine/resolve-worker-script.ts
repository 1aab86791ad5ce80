/** The worker-script resolver lives in node-lib, shared with core's library view worker. */
export { requireWorkerScript, resolveWorkerScript } from '../../node-lib/worker-script.js';
