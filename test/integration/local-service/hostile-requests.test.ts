/** Each class of request that once stopped or hung the service, answered now with the JSON error body. */
import { randomUUID } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_KEY, startFixture, type Fixture } from '../../support/service-fixture.js';
import { tempDir } from '../../support/temp-dir.js';
import { sendRaw, type Exchange } from './fuzz/raw-exchange.js';

let f: Fixture | undefined;
let logged: string[] = [];
afterEach(async () => {
  await f?.stop();
  f = undefined;
  logged = [];
});

const start = async (options: Parameters<typeof startFixture>[0] = {}) => {
  f = await startFixture({ log: (line) => logged.push(line), ...options });
  return f;
};
const portOf = (fx: Fixture) => Number(new URL(fx.url).port);
const send = (fx: Fixture, raw: string | Buffer, halfClose = false) =>
  sendRaw(portOf(fx), Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'latin1'), {
    halfClose,
    ...(halfClose ? {} : { expectAnswers: 1 }),
    timeoutMs: 20_000,
  });
const codeOf = (x: Exchange) => {
  const a = x.answers.at(-1);
  return { status: a?.status, code: (JSON.parse(a?.body.toString() ?? '{}') as any).error?.code };
};
const healthy = async (fx: Fixture) => (await fx.call('/healthz')).status === 200;

const B = 'XBOUNDARYX';
const part = (name: string, value: string, filename?: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${value}\r\n`;
const upload = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`;

describe('requests that used to stop the process', () => {
  it('answers malformed percent-encodings in any path with 400 malformed_path', async () => {
    const fx = await start();
    for (const path of ['/jobs/%ZZ', '/sdk/%E0%A4%A', '/jobs/%', '/sdk/%C0%AF']) {
      const x = await send(
        fx,
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
      );
      expect({ path, ...codeOf(x) }).toEqual({ path, status: 400, code: 'malformed_path' });
    }
    expect(await healthy(fx)).toBe(true);
  });

  it('survives a JSON body over the limit well past its 413 (the drain no longer crashes)', async () => {
    const fx = await start();
    const big = `{"deviceId":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    // The service's clock is the test's: the early answer's drain (its 3 s wait) runs to its end
    // at once, and an error of its timers is thrown here (no fixed sleep).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const x = await send(
        fx,
        `POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
      );
      expect(codeOf(x)).toEqual({ status: 413, code: 'body_too_large' });
      // The old crash came about 2 s after the answer; every timer due within 10 s runs now.
      await vi.advanceTimersByTimeAsync(10_000);
    } finally {
      vi.useRealTimers();
    }
    expect(await healthy(fx)).toBe(true);
  });
});

describe('requests that used to hang', () => {
  it('answers JSON bodies of every size up to the 4 MiB limit on /session and /sdk-key', async () => {
    const fx = await start();
    const session = await fx.call('/session', {
      method: 'POST',
      token: null,
      body: JSON.stringify({ deviceId: randomUUID() }),
    });
    for (const size of [16 * 1024 + 1, 100 * 1024, 1024 * 1024, 4 * 1024 * 1024]) {
      for (const [path, auth] of [
        ['/session', ''],
        ['/sdk-key', `Authorization: Bearer ${session.body.token}\r\n`],
      ]) {
        const body = `{"pad":"${'p'.repeat(size - 10)}"}`;
        const x = await send(
          fx,
          `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Length: ${body.length}\r\n\r\n${body}`,
        );
        expect({ path, size, ...codeOf(x) }).toEqual({
          path,
          size,
          status: 413,
          code: 'body_too_large',
        });
      }
    }
  });

  it('refuses two file parts, too many fields, parts or oversized fields with their own codes, leaving no upload', async () => {
    const fx = await start();
    const clip = 'x'.repeat(3000);
    const cases: [string, string][] = [
      [
        part('solution', 'objects') +
          part('file', clip, 'a.mp4') +
          part('file', 'y', 'b.mp4') +
          `--${B}--\r\n`,
        'too_many_files',
      ],
      [
        part('solution', 'objects') +
          Array.from({ length: 12 }, (_, i) => part(`f${i}`, 'v')).join('') +
          part('file', clip, 'a.mp4') +
          `--${B}--\r\n`,
        'too_many_fields',
      ],
      [
        part('solution', 'o'.repeat(5000)) + part('file', clip, 'a.mp4') + `--${B}--\r\n`,
        'field_too_large',
      ],
      [
        part('solution', 'objects') + part('clip', clip, 'a.mp4') + `--${B}--\r\n`,
        'unexpected_file_field',
      ],
    ];
    for (const [body, code] of cases) {
      for (const path of ['/infer/video', '/infer/image']) {
        expect({ path, ...codeOf(await send(fx, upload(path, body))) }).toEqual({
          path,
          status: 400,
          code,
        });
      }
    }
    expect(await readdir(join(fx.dataDir, 'uploads'))).toEqual([]);
  });

  it('removes every partial upload, even when the body breaks off inside the file (many at once)', async () => {
    // All 90 must reach the disk: the per-token upload limit (service-abuse.test.ts) is raised here.
    const fx = await start({ limits: { maxConcurrentRequests: 90 } });
    const whole = part('solution', 'objects') + part('file', 'x'.repeat(3000), 'a.mp4');
    const bodies = [
      whole.slice(0, 1500),
      whole,
      part('file', 'x'.repeat(3000), 'a.mp4') + part('solution', 'nope') + `--${B}--\r\n`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) => send(fx, upload('/infer/video', bodies[i % 3]!))),
    );
    expect(new Set(answers.map((x) => codeOf(x).code))).toEqual(
      new Set(['malformed_multipart', 'unknown_solution']),
    );
    expect(await readdir(join(fx.dataDir, 'uploads'))).toEqual([]);
  });

  it('closes a request that outlives the request timeout with a 408 JSON answer', async () => {
    const fx = await start({ requestTimeoutMs: 1500 });
    const head = `POST /infer/video HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: 100000\r\n\r\n${part('solution', 'objects')}`;
    const x = await send(fx, head); // the rest of the body never comes
    expect(codeOf(x)).toEqual({ status: 408, code: 'request_timeout' });
    expect(x.answers[0]?.headers['connection']).toBe('close');
    expect(x.closed || x.answers.length === 1).toBe(true);
    // Its partial file goes once the request is closed: wait for that, not for a set time.
    await expect.poll(() => readdir(join(fx.dataDir, 'uploads')), { timeout: 10_000 }).toEqual([]);
  });
});

describe('answers produced before any route', () => {
  it('gives parser refusals, a missing Host, an unknown Expect and CONNECT the JSON error body', async () => {
    const fx = await start();
    const cases: [string, number, string][] = [
      [
        `GET /catalog HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
        431,
        'headers_too_large',
      ],
      ['GARBAGE\r\n\r\n', 400, 'malformed_request'],
      [
        'POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
        400,
        'malformed_request',
      ],
      ['GET /catalog HTTP/1.1\r\n\r\n', 400, 'missing_host'],
      [
        'POST /session HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}',
        417,
        'expectation_failed',
      ],
      ['CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n', 405, 'method_not_allowed'],
    ];
    for (const [raw, status, code] of cases) {
      const x = await send(fx, raw);
      expect({ raw: raw.slice(0, 30), ...codeOf(x) }).toEqual({
        raw: raw.slice(0, 30),
        status,
        code,
      });
    }
    const cut = await send(
      fx,
      'POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n{"de',
      true,
    );
    expect(codeOf(cut)).toEqual({ status: 400, code: 'incomplete_request' });
    expect(await healthy(fx)).toBe(true);
  });
});

describe('uploads and aborts', () => {
  it('sweeps leftover uploads at start and keeps none of them', async () => {
    const data = await tempDir('labeldesk-sweep-');
    try {
      const first = await startFixture({}, data.dir);
      await first.stop();
      await writeFile(join(data.dir, 'uploads', 'left-by-a-crash.upload'), 'x');
      f = await startFixture({ log: (line) => logged.push(line) }, data.dir);
      expect(await readdir(join(data.dir, 'uploads'))).toEqual([]);
      expect(logged.join('\n')).toContain('removed 1 leftover upload');
    } finally {
      await f?.stop();
      f = undefined;
      await data.remove();
    }
  });

  it('logs a client that hangs up mid-upload as an abort, not an internal error, and removes its file', async () => {
    const fx = await start();
    const head = upload(
      '/infer/video',
      part('solution', 'objects') + part('file', 'x'.repeat(200_000), 'a.mp4'),
    ).slice(0, 100_000);
    await sendRaw(portOf(fx), Buffer.from(head, 'latin1'), { halfClose: false, timeoutMs: 500 });
    for (let i = 0; i < 50 && !logged.some((l) => l.startsWith('client aborted')); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(logged.filter((l) => l.startsWith('client aborted'))).toHaveLength(1);
    expect(logged.filter((l) => l.startsWith('internal error'))).toEqual([]);
    expect(await readdir(join(fx.dataDir, 'uploads'))).toEqual([]);
  });
});
