/**
 * The runner in-process against a real embedded service behind the fault proxy: a real library
 * store on a temp file, the real service client (its retry policy adjustable), media collected the
 * way `labeldesk label` does it. For runner-level fault tests.
 */
import { join } from 'node:path';
import { collectMedia } from '../../electron/application/collect-media.js';
import { planRun, type RunPlan } from '../../electron/core/runner/plan-run.js';
import {
  runLabelling,
  type RunOptions,
  type RunSummary,
} from '../../electron/core/runner/run-labelling.js';
import type { CatalogView, ServicePort } from '../../electron/core/runner/service-port.js';
import type { RetryPolicy } from '../../electron/core/service/retry-policy.js';
import { ServiceClient } from '../../electron/core/service/service-client.js';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../electron/core/store/store-types.js';
import type { LocalServiceOptions } from '../../electron/local-service/service.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startFixture, TEST_KEY, type Fixture } from './service-fixture.js';
import { tempDir } from './temp-dir.js';

export const GRANT = 100_000;

export interface RunnerRig {
  fixture: Fixture;
  proxy: FaultProxy;
  store: LibraryStore;
  client: ServiceClient;
  port: ServicePort;
  dir: string;
  /** Plans the given files or folders (rescanned each time) and runs the plan. */
  label(
    paths: readonly string[],
    options?: RunOptions & { retryUncertain?: boolean; solution?: string },
  ): Promise<{ plan: RunPlan; summary: RunSummary }>;
  plan(paths: readonly string[], retryUncertain?: boolean): Promise<RunPlan>;
  /** Frames the service has charged the key so far. */
  spent(): Promise<number>;
  /** Frames the library's ledger holds. */
  ledger(): number;
  close(): Promise<void>;
}

export async function startRunnerRig(
  options: { service?: Partial<LocalServiceOptions>; retry?: Partial<RetryPolicy> } = {},
): Promise<RunnerRig> {
  const tmp = await tempDir('labeldesk-runner-');
  const fixture = await startFixture({
    keys: [{ key: TEST_KEY, frames: GRANT }],
    ...options.service,
  });
  const proxy = await startFaultProxy(fixture.url);
  const store = openLibraryStore(join(tmp.dir, 'library.sqlite'));
  const client = new ServiceClient({
    baseUrl: proxy.url,
    apiKey: TEST_KEY,
    retry: { random: () => 0.5, ...options.retry },
  });
  const port: ServicePort = {
    baseUrl: proxy.url,
    catalog: (signal) => client.catalog(signal),
    keyStatus: (signal) => client.keyStatus(signal),
    inferImage: (input) => client.inferImage(input),
    submitVideo: (input) => client.submitVideo(input),
    job: (id, signal) => client.job(id, signal),
    cancelJob: (id) => client.cancelJob(id),
  };
  let catalog: CatalogView | undefined;
  const plan = async (paths: readonly string[], retryUncertain = false, solution = 'objects') => {
    catalog ??= await client.catalog();
    const selection = await collectMedia(store, paths);
    return planRun(store, catalog, solution, selection.media, {
      retryUncertain,
      serviceUrl: proxy.url,
    });
  };
  return {
    fixture,
    proxy,
    store,
    client,
    port,
    dir: tmp.dir,
    plan: (paths, retryUncertain) => plan(paths, retryUncertain),
    async label(paths, { retryUncertain, solution, ...run } = {}) {
      const p = await plan(paths, retryUncertain, solution);
      const summary = await runLabelling({ store, service: port, catalog: catalog! }, p, run);
      return { plan: p, summary };
    },
    spent: async () => {
      const { body } = await fixture.call('/key');
      return GRANT - (body as { remaining: number }).remaining;
    },
    ledger: () => store.ledger.spentSince(proxy.url, 0),
    async close() {
      store.close();
      await proxy.close();
      await fixture.stop();
      await tmp.remove();
    },
  };
}
