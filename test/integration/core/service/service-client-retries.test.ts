/** Retries through the fault proxy: Retry-After, backoff, no retry on refusals, keep-alive reuse. */
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client.js';
import { NetworkError, ServiceError } from '../../../../electron/core/service/service-errors.js';
import {
  rejectionOf,
  startHarness,
  type Harness,
} from '../../../support/service-client-harness.js';
import { jpeg } from '../../../support/synth-media.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(() => {
  h.retries.length = 0;
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('ServiceClient retries', () => {
  it('reuses one keep-alive connection for sequential calls', async () => {
    const client = h.client();
    // undici may open a second socket while the first answer is being finished; then it settles.
    await client.health();
    await client.health();
    const before = h.proxy.connections();
    for (let i = 0; i < 5; i++) await client.catalog();
    expect(h.proxy.connections()).toBe(before);
  });

  it('waits Retry-After on a 429, then resends the upload once', async () => {
    const client = h.client();
    const before = await h.remaining();
    h.proxy.inject('POST', '/infer/image', {
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '1' },
      body: { error: { code: 'hour_frames_exhausted', message: 'wait' } },
    });
    const started = Date.now();
    const result = await client.inferImage({ solution: 'objects', file: await jpeg() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(h.retries.map((r) => r.delayMs)).toEqual([1000]);
    expect((h.retries[0]!.error as ServiceError).code).toBe('hour_frames_exhausted');
    expect(h.seen('POST', '/infer/image')).toBe(2);
    expect(result.credits!.spent).toBe(4);
    expect(await h.remaining()).toBe(before - 4);
  });

  it('hands a Retry-After longer than maxRetryAfterMs back to the caller, not shortened', async () => {
    const client = h.client({ retry: { maxRetryAfterMs: 120 } });
    h.proxy.inject('GET', '/key', {
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '3600' },
    });
    const err = await rejectionOf(client.keyStatus());
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).retryAfterSec).toBe(3600);
    expect(h.retries).toEqual([]);
  });

  it('reads an HTTP-date Retry-After', async () => {
    const client = h.client();
    const at = new Date(Date.now() + 2000).toUTCString();
    h.proxy.inject('GET', '/key', { kind: 'status', status: 503, headers: { 'Retry-After': at } });
    await client.keyStatus();
    expect(h.retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(h.retries[0]!.delayMs).toBeLessThanOrEqual(2000);
  });

  it('backs off exponentially on 503 and on a foreign 502 page', async () => {
    const client = h.client();
    h.proxy.inject('GET', '/catalog', { kind: 'status', status: 503 }, 2);
    h.proxy.inject('GET', '/catalog', {
      kind: 'status',
      status: 502,
      body: '<html>bad gateway</html>',
    });
    const before = h.seen('GET', '/catalog');
    const catalog = await client.catalog();
    expect(catalog.solutions.length).toBeGreaterThan(0);
    expect(h.retries.map((r) => r.delayMs)).toEqual([50, 100, 200]);
    expect((h.retries[2]!.error as ServiceError).code).toBe('http_502');
    expect(h.seen('GET', '/catalog') - before).toBe(4);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const client = h.client({ retry: { maxAttempts: 3 } });
    h.proxy.inject(
      'GET',
      '/healthz',
      { kind: 'status', status: 503, headers: { 'Retry-After': '0' } },
      3,
    );
    const before = h.seen('GET', '/healthz');
    const err = await rejectionOf(client.health());
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 503, retryAfterSec: 0 });
    expect(h.seen('GET', '/healthz') - before).toBe(3);
  });

  it('never retries 400, 401, 402, 403, 404, 413, 415 or 422', async () => {
    const client = h.client();
    for (const status of [400, 401, 402, 403, 404, 413, 415, 422]) {
      h.proxy.inject('POST', '/infer/image', { kind: 'status', status });
      const before = h.seen('POST', '/infer/image');
      const err = await rejectionOf(
        client.inferImage({ solution: 'objects', file: await jpeg(64, 64) }),
      );
      expect(err).toMatchObject({ status, code: `injected_${status}` });
      expect(h.seen('POST', '/infer/image') - before).toBe(1);
    }
    expect(h.retries).toEqual([]);
  });

  it('retries a GET whose answer was lost, and reports an unreachable service as a network error', async () => {
    const client = h.client();
    h.proxy.inject('GET', '/healthz', { kind: 'drop-after-upload', forward: true });
    const before = h.seen('GET', '/healthz');
    expect((await client.health()).status).toBe('ok');
    expect(h.seen('GET', '/healthz') - before).toBe(2);
    expect(h.retries[0]!.error).toBeInstanceOf(NetworkError);

    const port = await closedPort();
    const closed = new ServiceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const err = await rejectionOf(closed.catalog());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'network_error', reason: 'network' });
    expect((err as NetworkError).message).toMatch(/ECONNREFUSED/);
  });
});
