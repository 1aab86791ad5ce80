/**
 * The embedded service against an attacker with raw sockets: many parallel clip uploads on one
 * token, bodies that stall, headers sent one byte at a time, connection floods, and requests whose
 * Host is not the service's own (DNS rebinding). Each refusal is the JSON error body, on time.
 */
import { randomUUID } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../../support/poll-job.js';
import { TEST_KEY, startFixture, type Fixture } from '../../support/service-fixture.js';
import { clip } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';
import { parseAnswers, sendRaw, type RawAnswer } from './fuzz/raw-exchange.js';

let f: Fixture | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await f?.stop();
  f = undefined;
});

const portOf = (fx: Fixture) => Number(new URL(fx.url).port);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errorCode = (a: RawAnswer | undefined) =>
  (JSON.parse(a?.body.toString() ?? '{}') as { error?: { code?: string } }).error?.code;

/** A raw connection that collects what the server sends and when it closed. */
function open(port: number): {
  socket: Socket;
  answers: () => RawAnswer[];
  closedAt: () => number | undefined;
  ready: Promise<void>;
} {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const chunks: Buffer[] = [];
  let closedAt: number | undefined;
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.on('error', () => undefined);
  socket.on('close', () => (closedAt = performance.now()));
  const ready = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    answers: () => parseAnswers(Buffer.concat(chunks)).answers,
    closedAt: () => closedAt,
    ready,
  };
}

const B = 'XBOUNDARYX';
/** The head of a clip upload that announces `size` bytes and sends only its first part. */
const uploadHead = (port: number, size: number) =>
  `POST /infer/video HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
  `Content-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${size}\r\n\r\n` +
  `--${B}\r\nContent-Disposition: form-data; name="solution"\r\n\r\nobjects\r\n` +
  `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\n\r\n${'x'.repeat(64 * 1024)}`;

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

describe('clip uploads per token', () => {
  let media: { dir: string; remove: () => Promise<void> };
  let mp4: string;
  beforeAll(async () => {
    media = await tempDir('labeldesk-abuse-clips-');
    mp4 = await clip(media.dir, 'clip.mp4', 2);
  });
  afterAll(() => media.remove());

  it('holds at most the per-token limit in progress; the next 20 get 429 with Retry-After and JSON', async () => {
    f = await startFixture();
    const port = portOf(f);
    const limit = f.service.config.limits.maxConcurrentRequests;
    const uploads = Array.from({ length: limit + 20 }, () => open(port));
    for (const u of uploads) {
      await u.ready;
      u.socket.write(uploadHead(port, 40 * 1024 * 1024));
    }
    const refused = () => uploads.filter((u) => u.answers().length > 0);
    expect(await waitFor(() => refused().length === 20, 10_000)).toBe(true);
    for (const u of refused()) {
      const [answer] = u.answers();
      expect(answer?.status).toBe(429);
      expect(errorCode(answer)).toBe('too_many_uploads');
      expect(Number(answer?.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Only the admitted uploads are on disk.
    const onDisk = async () => (await readdir(join(f!.dataDir, 'uploads'))).length;
    expect(await waitFor(async () => (await onDisk()) === limit, 3000)).toBe(true);
    // Every upload is accounted for (20 answered 429, the others on disk): none is left that
    // could still be admitted, so no wait is needed to see that no more came.
    expect(refused().length + (await onDisk())).toBe(uploads.length);
    // Once they are gone, the token may upload again.
    for (const u of uploads) u.socket.destroy();
    expect(
      await waitFor(async () => (await readdir(join(f!.dataDir, 'uploads'))).length === 0, 5000),
    ).toBe(true);
    const again = await f.upload('/infer/video', {
      solution: 'objects',
      file: new Blob([new Uint8Array(await readFile(mp4))]),
      filename: 'clip.mp4',
    });
    expect(again.status).toBe(202);
  });

  it('counts the token’s queued jobs with its uploads, and no other token’s', async () => {
    f = await startFixture({
      // Slow enough that the first job is still running under any load: it must not free a slot.
      latencyMs: 3000,
      limits: { maxConcurrentJobs: 1, maxConcurrentRequests: 3 },
    });
    const file = new Blob([new Uint8Array(await readFile(mp4))]);
    const up = (token = TEST_KEY) =>
      f!.upload('/infer/video', { solution: 'objects', file, filename: 'clip.mp4' }, token);
    const running = await up();
    await pollJob(f, running.body.jobId, { until: (j) => j.status === 'running' });
    const queued = [await up(), await up(), await up()];
    expect(queued.map((r) => r.status)).toEqual([202, 202, 202]);
    const next = await up();
    expect(next.status).toBe(429);
    expect(next.body.error.code).toBe('too_many_uploads');
    const session = await f.call('/session', {
      method: 'POST',
      token: null,
      body: JSON.stringify({ deviceId: randomUUID() }),
    });
    expect((await up(session.body.token)).status).toBe(202);
    // A queued job cancelled frees its slot.
    await f.call(`/jobs/${queued[0]!.body.jobId}`, { method: 'DELETE' });
    expect((await up()).status).toBe(202);
  });
});

describe('slow and stalled senders', () => {
  it('answers a body that stalls 408 with JSON after the idle limit and removes its partial file', async () => {
    f = await startFixture({ bodyIdleTimeoutMs: 1000 });
    const port = portOf(f);
    const u = open(port);
    await u.ready;
    const sent = performance.now();
    u.socket.write(uploadHead(port, 10 * 1024 * 1024));
    expect(await waitFor(() => (u.closedAt() ?? 0) > 0, 5000)).toBe(true);
    const [answer] = u.answers();
    expect(answer?.status).toBe(408);
    expect(errorCode(answer)).toBe('body_stalled');
    expect(answer?.headers['connection']).toBe('close');
    const ms = u.closedAt()! - sent;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(2500);
    expect(
      await waitFor(async () => (await readdir(join(f!.dataDir, 'uploads'))).length === 0, 1000),
    ).toBe(true);
  });

  it('lets a slow body that keeps arriving go on past the idle limit', async () => {
    f = await startFixture({ bodyIdleTimeoutMs: 1000 });
    const port = portOf(f);
    const body = JSON.stringify({ deviceId: randomUUID() });
    const u = open(port);
    await u.ready;
    u.socket.write(
      `POST /session HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // One byte every 60 ms: about 3 s in all, three times the idle limit.
    for (const ch of body) {
      u.socket.write(ch);
      await sleep(60);
    }
    expect(await waitFor(() => u.answers().length > 0, 3000)).toBe(true);
    expect(u.answers()[0]?.status).toBe(201);
  });

  it('closes 200 one-byte-at-a-time header senders with 408 JSON within the header limit, counted from connect', async () => {
    const headersTimeoutMs = 2000;
    f = await startFixture({ headersTimeoutMs });
    const port = portOf(f);
    const started = performance.now();
    const senders = Array.from({ length: 200 }, () => open(port));
    await Promise.all(senders.map((s) => s.ready));
    const head = `GET /catalog HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Pad: ${'p'.repeat(200)}`;
    // Node counts its limit from the first byte: waiting before it used to buy a second limit.
    await sleep(1000);
    let at = 0;
    const drip = setInterval(() => {
      const ch = head[at++ % head.length]!;
      for (const s of senders) if (!s.socket.destroyed) s.socket.write(ch);
    }, 100);
    try {
      expect(await waitFor(() => senders.every((s) => s.closedAt() !== undefined), 8000)).toBe(
        true,
      );
    } finally {
      clearInterval(drip);
    }
    const latest = Math.max(...senders.map((s) => s.closedAt()! - started));
    // Server and senders share this process and a busy machine: some slack, still well under the
    // 2.9 s that counting from the first byte would take.
    expect(latest).toBeLessThan(headersTimeoutMs + 600);
    for (const s of senders) {
      expect(s.answers()[0]?.status).toBe(408);
      expect(errorCode(s.answers()[0])).toBe('request_timeout');
    }
    expect((await f.call('/healthz')).status).toBe(200);
  });

  it('caps open connections: past the cap, 503 with JSON at once; served again once they close', async () => {
    f = await startFixture({ maxConnections: 20 });
    const port = portOf(f);
    const held = Array.from({ length: 30 }, () => open(port));
    await Promise.all(held.map((s) => s.ready));
    expect(await waitFor(() => held.filter((s) => s.closedAt()).length === 10, 3000)).toBe(true);
    for (const s of held.filter((x) => x.closedAt())) {
      expect(s.answers()[0]?.status).toBe(503);
      expect(errorCode(s.answers()[0])).toBe('too_many_connections');
    }
    for (const s of held) s.socket.destroy();
    expect(await waitFor(async () => (await f!.call('/healthz')).status === 200, 3000)).toBe(true);
  });

  it('past the cap, a connection that already sent its request gets only the 503, and nothing breaks', async () => {
    const logged: string[] = [];
    f = await startFixture({ maxConnections: 20, log: (line) => logged.push(line) });
    const port = portOf(f);
    const busy = Array.from({ length: 40 }, () => open(port));
    for (const s of busy) {
      s.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    }
    expect(await waitFor(() => busy.every((s) => s.answers().length > 0), 5000)).toBe(true);
    const statuses = busy.map((s) => s.answers().map((a) => a.status));
    // Each connection got exactly one answer: 200 if it was held, 503 if it was refused.
    expect(statuses.every((a) => a.length === 1)).toBe(true);
    expect(statuses.filter(([st]) => st === 200).length).toBe(20);
    expect(statuses.filter(([st]) => st === 503).length).toBe(20);
    expect(logged.filter((l) => /internal error|could not answer/.test(l))).toEqual([]);
    expect(logged.filter((l) => l.startsWith('refusing connections'))).toHaveLength(1);
  });
});

describe('DNS rebinding', () => {
  const ask = (port: number, host: string, method = 'GET') =>
    sendRaw(
      port,
      Buffer.from(
        `${method} /catalog HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
      { halfClose: false, expectAnswers: 1, timeoutMs: 5000 },
    );

  it('refuses a Host that is not its address or localhost with 421 and JSON, preflights included', async () => {
    f = await startFixture();
    const port = portOf(f);
    for (const host of [
      `rebind.attacker.example:${port}`,
      'rebind.attacker.example',
      `127.0.0.1:${port + 1}`,
      `localhost:${port + 1}`,
      `[::1]:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.:${port}`,
      '',
    ]) {
      for (const method of ['GET', 'OPTIONS']) {
        const [answer] = (await ask(port, host, method)).answers;
        expect({ host, method, status: answer?.status, code: errorCode(answer) }).toEqual({
          host,
          method,
          status: 421,
          code: 'host_not_allowed',
        });
      }
    }
  });

  it('answers its own address and localhost, with or without the port', async () => {
    f = await startFixture();
    const port = portOf(f);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost:${port}`,
      '127.0.0.1',
    ]) {
      const [answer] = (await ask(port, host)).answers;
      expect({ host, status: answer?.status }).toEqual({ host, status: 200 });
    }
    // fetch (the app's client and the node SDK) sends the address it was given.
    expect((await fetch(`${f.url}/healthz`)).status).toBe(200);
  });
});
