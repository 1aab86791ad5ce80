import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/local-service/http/api-error.js';
import { createRoutedServer, type Route } from '../../../../electron/local-service/http/router.js';
import { sendJson } from '../../../../electron/local-service/http/respond.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(routes: Route[], log: (line: string) => void) {
  const server = createRoutedServer(routes, {
    requestTimeoutMs: 60_000,
    headersTimeoutMs: 15_000,
    bodyIdleTimeoutMs: 30_000,
    maxConnections: 64,
    log,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the per-request guard', () => {
  it('turns anything a handler throws, now or later, into a logged 500 JSON answer and keeps serving', async () => {
    const logged: string[] = [];
    const url = await serve(
      [
        {
          method: 'GET',
          path: '/sync',
          handler: () => {
            throw new TypeError('boom now');
          },
        },
        {
          method: 'GET',
          path: '/async',
          handler: async () => {
            await Promise.resolve();
            throw new Error('boom later');
          },
        },
        {
          method: 'GET',
          path: '/null',
          handler: () => {
            (null as unknown as { x: () => void }).x();
          },
        },
        {
          method: 'GET',
          path: '/known',
          handler: () => {
            throw new ApiError(409, 'some_conflict', 'A known refusal.');
          },
        },
        {
          method: 'GET',
          path: /^\/items\/([^/]+)$/,
          handler: (_req, res, [id]) => sendJson(res, 200, { id }),
        },
      ],
      (line) => logged.push(line),
    );
    for (const path of ['/sync', '/async', '/null']) {
      const res = await fetch(url + path);
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 500,
        body: { error: { code: 'internal_error', message: expect.any(String) } },
      });
    }
    expect(logged.filter((l) => l.startsWith('internal error'))).toHaveLength(3);
    expect(logged.join('\n')).toContain('boom later');
    const known = await fetch(`${url}/known`);
    expect([known.status, ((await known.json()) as any).error.code]).toEqual([
      409,
      'some_conflict',
    ]);
    expect(logged).toHaveLength(3); // a refusal with a code is not an internal error
    expect(await (await fetch(`${url}/items/a%20b`)).json()).toEqual({ id: 'a b' });
    const bad = await fetch(`${url}/items/%E0%A4%A`);
    expect([bad.status, ((await bad.json()) as any).error.code]).toEqual([400, 'malformed_path']);
    const wrong = await fetch(`${url}/sync`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, OPTIONS');
  });
});
