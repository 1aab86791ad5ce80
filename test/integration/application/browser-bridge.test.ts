/**
 * Browser mode's guard: the launch secret and the app's own Origin are checked at the WebSocket
 * handshake (403, never a 101), media routes need their token and accept only library ids, and
 * the static server never leaves the renderer folder; a foreign Host (DNS rebinding) gets 421.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TEST_HOME_MARKER } from '../../../electron/application/service-connection.js';
import {
  startBrowserMode,
  type BrowserMode,
} from '../../../electron/application/browser/browser-server.js';
import { tempDir } from '../../support/temp-dir.js';
import { sendRaw } from '../local-service/fuzz/raw-exchange.js';

let mode: BrowserMode;
let remove: () => Promise<void>;
let secret: string;
let folder: string;

/** Resolves with the HTTP status of a refused handshake, or 101 when the socket opened. */
function handshakeWith(
  protocols: string[],
  origin: string | undefined,
  cookie?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${mode.origin.replace('http', 'ws')}/bridge`, protocols, {
      ...(origin ? { origin } : {}),
      ...(cookie ? { headers: { cookie } } : {}),
    });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', reject);
  });
}

const handshake = (protocols: string[], origin: string | undefined) =>
  handshakeWith(protocols, origin);

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${mode.origin.replace('http', 'ws')}/bridge`,
      ['labeldesk.v1', `secret.${secret}`],
      { origin: mode.origin },
    );
    ws.on('open', () => resolve(ws));
    ws.on('error', reject);
  });
}

function call(ws: WebSocket, id: number, name: string, input: unknown): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString());
      if (msg.type === 'reply' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'call', id, name, input }));
  });
}

beforeAll(async () => {
  const tmp = await tempDir();
  remove = tmp.remove;
  const renderer = join(tmp.dir, 'renderer');
  await mkdir(renderer);
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>LabelDesk</title>');
  folder = join(tmp.dir, 'photos');
  await mkdir(folder);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
    .jpeg()
    .toFile(join(folder, 'red.jpg'));
  const home = join(tmp.dir, 'home');
  await mkdir(home);
  await writeFile(join(home, TEST_HOME_MARKER), '');
  mode = await startBrowserMode({
    rendererDir: renderer,
    env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
  });
  secret = new URL(mode.url).hash.replace('#secret=', '');
});

afterAll(async () => {
  await mode?.close();
  await remove?.();
});

describe('browser mode bridge', () => {
  it('prints a loopback URL with the secret only in the fragment', () => {
    const url = new URL(mode.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/');
    expect(url.search).toBe('');
    expect(secret.length).toBeGreaterThanOrEqual(24);
  });

  it('refuses a handshake without the secret, with a wrong one, or from another origin', async () => {
    expect(await handshake(['labeldesk.v1'], mode.origin)).toBe(403);
    expect(await handshake(['labeldesk.v1', 'secret.wrong'], mode.origin)).toBe(403);
    expect(await handshake(['labeldesk.v1', `secret.${secret}`], 'http://evil.example')).toBe(403);
    expect(await handshake(['labeldesk.v1', `secret.${secret}`], undefined)).toBe(403);
    expect(await handshake(['labeldesk.v1', `secret.${secret}`], mode.origin)).toBe(101);
  });

  it('trades the secret for a per-launch session cookie accepted instead of it', async () => {
    const open = (headers: Record<string, string>, method = 'POST') =>
      fetch(`${mode.origin}/session`, { method, headers });
    expect((await open({ origin: mode.origin })).status).toBe(403);
    expect((await open({ origin: mode.origin, 'x-labeldesk-secret': 'wrong' })).status).toBe(403);
    expect(
      (await open({ origin: 'http://evil.example', 'x-labeldesk-secret': secret })).status,
    ).toBe(403);
    expect((await open({ origin: mode.origin, 'x-labeldesk-secret': secret }, 'GET')).status).toBe(
      403,
    );
    const res = await open({ origin: mode.origin, 'x-labeldesk-secret': secret });
    expect(res.status).toBe(204);
    const set = res.headers.getSetCookie();
    expect(set).toHaveLength(1);
    const port = new URL(mode.origin).port;
    expect(set[0]).toMatch(new RegExp(`^labeldesk_session_${port}=[A-Za-z0-9_-]{32}; `));
    const attributes = (set[0] as string).split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'samesite=strict']));
    // A session cookie, host-only: it ends with the browser session and goes nowhere else.
    expect((set[0] as string).toLowerCase()).not.toMatch(/max-age|expires|domain/);
    const cookie = (set[0] as string).split(';')[0] as string;
    expect(cookie).not.toContain(secret);

    expect(await handshakeWith(['labeldesk.v1'], mode.origin, cookie)).toBe(101);
    expect(await handshakeWith(['labeldesk.v1'], 'http://evil.example', cookie)).toBe(403);
    const forged = `${cookie.split('=')[0]}=${'A'.repeat(32)}`;
    expect(await handshakeWith(['labeldesk.v1'], mode.origin, forged)).toBe(403);
    const otherPort = cookie.replace(`_${port}=`, `_${Number(port) + 1}=`);
    expect(await handshakeWith(['labeldesk.v1'], mode.origin, otherPort)).toBe(403);
  });

  it('answers calls, refuses unknown calls and invalid arguments with codes', async () => {
    const ws = await connect();
    const info = await call(ws, 1, 'app.info', {});
    expect(info.ok).toBe(true);
    expect(info.result.transport).toBe('browser');
    expect(JSON.stringify(info)).not.toContain(secret);
    expect((await call(ws, 2, 'fs.readFile', {})).error.code).toBe('unknown_call');
    const bad = await call(ws, 3, 'folders.add', { path: 42 });
    expect(bad.error.code).toBe('invalid_arguments');
    const missing = await call(ws, 4, 'folders.add', { path: '/no/such/folder/here' });
    expect(missing.error.code).toBe('not_found');
    // An argument far over its limit is a coded answer, not a dropped connection.
    const huge = await call(ws, 5, 'folders.add', { path: `/${'x'.repeat(2_000_000)}` });
    expect(huge.error.code).toBe('invalid_arguments');
    expect((await call(ws, 6, 'app.info', {})).ok).toBe(true);
    ws.close();
  });

  it('serves media by library id only, with the media token and Range', async () => {
    const ws = await connect();
    const info = (await call(ws, 1, 'app.info', {})).result;
    const added = await call(ws, 2, 'folders.add', { path: folder });
    expect(added.ok).toBe(true);
    let items: any[] = [];
    // Served once probed: a file is read only after it proved to be the image it claims to be.
    for (let i = 0; i < 100 && items[0]?.width == null; i++) {
      const page = await call(ws, 3 + i, 'library.page', {
        filter: { solution: 'objects' },
        offset: 0,
        limit: 10,
      });
      items = page.result.items;
      if (items[0]?.width == null) await new Promise((r) => setTimeout(r, 50));
    }
    expect(items.map((i) => i.name)).toEqual(['red.jpg']);
    const id = items[0].id;
    const file = await fetch(`${mode.origin}${info.mediaBase}file/${id}`, {
      headers: { Range: 'bytes=0-9' },
    });
    expect(file.status).toBe(206);
    expect(file.headers.get('content-range')).toMatch(/^bytes 0-9\/\d+$/);
    expect((await file.arrayBuffer()).byteLength).toBe(10);
    const thumb = await fetch(`${mode.origin}${info.mediaBase}thumb/${id}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const wrongToken = await fetch(`${mode.origin}/media/abcdefghijklmnop/file/${id}`);
    expect(wrongToken.status).toBe(403);
    for (const bad of [`file/${id}%2f..%2f1`, 'file/%2e%2e%2fetc', 'file/abc', `other/${id}`]) {
      const res = await fetch(`${mode.origin}${info.mediaBase}${bad}`);
      expect([403, 404]).toContain(res.status);
    }
    expect((await fetch(`${mode.origin}${info.mediaBase}file/999999`)).status).toBe(404);
    ws.close();
  });

  it('keeps the static server inside the renderer folder', async () => {
    const index = await fetch(`${mode.origin}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    for (const p of ['/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/etc/passwd', '/%00']) {
      expect((await fetch(`${mode.origin}${p}`)).status).toBe(404);
    }
    expect((await fetch(`${mode.origin}/`, { method: 'POST' })).status).toBe(405);
  });
});

/** One raw request; a 101 is no final answer, so an accepted upgrade is read until `timeoutMs`. */
const get = (path: string, host: string, extra = '', timeoutMs = 5000) =>
  sendRaw(
    Number(new URL(mode.origin).port),
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`),
    { halfClose: false, expectAnswers: 1, timeoutMs },
  );
const upgrade = (host: string) =>
  get(
    '/bridge',
    host,
    `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: labeldesk.v1, secret.${secret}\r\n` +
      `Origin: http://${host}\r\n`,
  );

describe('browser mode Host check (DNS rebinding)', () => {
  it('refuses pages, media and the bridge for a foreign Host with 421 and JSON, even with the secret', async () => {
    const port = Number(new URL(mode.origin).port);
    for (const host of [`rebind.attacker.example:${port}`, `127.0.0.1:${port + 1}`, '']) {
      for (const x of [
        await get('/', host),
        await get('/media/x/file/1', host),
        await upgrade(host),
      ]) {
        const answer = x.answers[0];
        expect({ host, status: answer?.status }).toEqual({ host, status: 421 });
        expect(JSON.parse(answer?.body.toString() ?? '{}')).toMatchObject({
          error: { code: 'host_not_allowed' },
        });
      }
    }
  });

  it('serves its own address and localhost', async () => {
    const port = Number(new URL(mode.origin).port);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await get('/', host)).answers[0]?.status).toBe(200);
    }
    const bridge = await get(
      '/bridge',
      `127.0.0.1:${port}`,
      `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: labeldesk.v1, secret.${secret}\r\n` +
        `Origin: ${mode.origin}\r\n`,
      500,
    );
    expect(bridge.answers[0]?.status).toBe(101);
  });
});
