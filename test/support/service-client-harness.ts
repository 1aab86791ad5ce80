/** An embedded service behind a fault proxy, and ServiceClients pointed at the proxy. */
import type { RetryEvent, RetryPolicy } from '../../electron/core/service/retry-policy.js';
import { ServiceClient } from '../../electron/core/service/service-client.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { TEST_KEY, startFixture, type Fixture } from './service-fixture.js';

export interface Harness {
  f: Fixture;
  proxy: FaultProxy;
  /** Retries recorded by clients made with `client()`. */
  retries: RetryEvent[];
  /** Fast, deterministic backoff (random = 1): waits of 50, 100, 200… ms. */
  client(options?: { timeoutMs?: number; retry?: Partial<RetryPolicy> }): ServiceClient;
  /** Frames left on TEST_KEY, asked of the service directly (not through the proxy). */
  remaining(): Promise<number>;
  /** Requests the proxy saw for method + path. */
  seen(method: string, path: string | RegExp): number;
  stop(): Promise<void>;
}

export async function startHarness(limits: Record<string, unknown> = {}): Promise<Harness> {
  const f = await startFixture({ latencyMs: 2, limits });
  const proxy = await startFaultProxy(f.url);
  const retries: RetryEvent[] = [];
  return {
    f,
    proxy,
    retries,
    client: (options = {}) =>
      new ServiceClient({
        baseUrl: proxy.url,
        apiKey: TEST_KEY,
        timeoutMs: options.timeoutMs ?? 10_000,
        retry: {
          baseDelayMs: 50,
          random: () => 1,
          onRetry: (e) => retries.push(e),
          ...options.retry,
        },
      }),
    remaining: async () => (await f.call('/key')).body.remaining as number,
    seen: (method, path) =>
      proxy.requests.filter(
        (r) =>
          r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
      ).length,
    stop: async () => {
      await proxy.close();
      await f.stop();
    },
  };
}

/** The rejection of `call`, failing the test when it resolves. */
export async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value).slice(0, 200)}`);
    },
    (err: unknown) => err,
  );
}
