/**
 * Lets worker threads run our TypeScript source under Vitest (`execArgv` in vitest.config.ts):
 * Vitest transpiles in memory, which a new thread cannot share, so without this a worker needed
 * `build/` (and ran whatever was last built). Worker threads inherit this `--import`, so each
 * registers the same hooks; LABELDESK_WORKERS_FROM_SOURCE tells resolveWorkerScript to point
 * workers at their `.ts` source.
 */
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
process.env.LABELDESK_WORKERS_FROM_SOURCE = '1';
