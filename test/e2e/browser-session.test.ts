/**
 * Browser mode survives a reload and a second tab: the secret's handshake sets this launch's
 * session cookie, so a reload (F5) and a second page of the same browser keep
 * working, while a fresh profile, a cookie of an earlier launch and a foreign Origin get 403.
 * The secret and the cookie never reach the app's output, the address bar or the library's files.
 */
import { join } from 'node:path';
import type { BrowserContext, Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { servePageOrigin } from '../support/sdk-browser.js';
import { filesHolding } from '../support/secrets-in-files.js';
import { tempDir } from '../support/temp-dir.js';
import { NO_KEYCHAIN, screenshot, startBrowserApp, type BrowserApp } from './browser-app.js';

let app: BrowserApp;
let home: string;
let remove: () => Promise<void>;
const extraContexts: BrowserContext[] = [];

/** The WebSocket handshake refusals Chromium reports on the console. */
function handshakeErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/WebSocket connection .* failed/.test(m.text())) seen.push(m.text());
  });
  return seen;
}

/** The bridge answers a call: the Folders screen lists its empty state from the library. */
async function bridgeWorks(page: Page): Promise<void> {
  await page.getByText(/service · /).waitFor({ timeout: 90_000 });
  await page.getByRole('navigation').getByRole('button', { name: 'Folders' }).click();
  await page.getByRole('button', { name: 'Add folder' }).waitFor();
  expect(
    await page
      .getByRole('alert')
      .filter({ hasText: /launch secret|Lost the/ })
      .count(),
  ).toBe(0);
}

async function refusedPage(context: BrowserContext, origin: string): Promise<string[]> {
  const page = await context.newPage();
  const errors = handshakeErrors(page);
  await page.goto(origin);
  await page
    .getByRole('alert')
    .filter({ hasText: /no launch secret/ })
    .waitFor();
  return errors;
}

/** The status of a raw handshake carrying `cookie` (101 when the socket opened). */
function rawHandshake(origin: string, cookie: string, sentOrigin = origin): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, ['labeldesk.v1'], {
      origin: sentOrigin,
      headers: { cookie },
    });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', reject);
  });
}

beforeAll(async () => {
  const tmp = await tempDir('labeldesk-e2e-session-');
  remove = tmp.remove;
  home = join(tmp.dir, 'home');
  app = await startBrowserApp({ LABELDESK_HOME: home, ...NO_KEYCHAIN });
}, 120_000);

afterAll(async () => {
  for (const c of extraContexts) await c.close().catch(() => undefined);
  await app?.close();
  await remove?.();
});

describe('browser mode session', () => {
  let origin: string;
  let session: Cookie;

  it('keeps working after a reload (F5): it connects with the session cookie', async () => {
    const { page } = app;
    origin = new URL(app.url).origin;
    await page.goto(app.url);
    await bridgeWorks(page);
    expect(page.url()).not.toContain('secret');
    await expect.poll(() => page.context().cookies(origin)).toHaveLength(1);
    session = (await page.context().cookies(origin))[0] as Cookie;
    const errors = handshakeErrors(page);
    // What F5 does. Playwright drives the page, not the browser's own shortcuts (F5 sent as a key
    // never reaches Chromium's reload accelerator: microsoft/playwright#29362), so it reloads here.
    await page.reload();
    expect(page.url()).toBe(`${origin}/`);
    await bridgeWorks(page);
    await screenshot(page, 'browser-session-after-reload');
    expect(errors).toEqual([]);
    expect(session).toMatchObject({
      name: `labeldesk_session_${new URL(origin).port}`,
      domain: '127.0.0.1',
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      expires: -1,
    });
    // HttpOnly: the page's own scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('works in a second tab of the same browser', async () => {
    const second = await app.page.context().newPage();
    await second.goto(origin);
    await bridgeWorks(second);
    await second.close();
  });

  it('refuses a fresh profile without the secret (403) and says what to open', async () => {
    const fresh = await app.browser.newContext();
    extraContexts.push(fresh);
    const errors = await refusedPage(fresh, origin);
    await screenshot(fresh.pages()[0] as Page, 'browser-session-fresh-profile');
    expect(errors.join('\n')).toMatch(/403/);
  });

  it('refuses a foreign Origin even with the session cookie (403)', async () => {
    const cookie = `${session.name}=${session.value}`;
    expect(await rawHandshake(origin, cookie)).toBe(101);
    expect(await rawHandshake(origin, cookie, 'http://evil.example')).toBe(403);
    expect(await rawHandshake(origin, cookie, 'null')).toBe(403);
  });

  it('refuses a page of another port in the same browser: same site, so the cookie goes, 403', async () => {
    // Cookies ignore ports and 127.0.0.1:other is the same site: only the Origin check stands.
    const bridge = `${origin.replace('http', 'ws')}/bridge`;
    const other = await servePageOrigin(
      `<!doctype html><script>const ws = new WebSocket(${JSON.stringify(bridge)}, 'labeldesk.v1');
ws.onopen = () => (document.title = 'opened'); ws.onclose = () => (document.title = 'refused');</script>`,
    );
    try {
      const page = await app.page.context().newPage();
      const errors = handshakeErrors(page);
      await page.goto(other.url);
      await expect.poll(() => page.title()).toBe('refused');
      expect(errors.join('\n')).toMatch(/403/);
      await page.close();
    } finally {
      await other.close();
    }
  });

  it('keeps the secret and the cookie out of the output, the address and every file', async () => {
    const secret = new URL(app.url).hash.slice('#secret='.length);
    const printed = app.output().replace(app.url, '');
    expect(printed).not.toContain(secret);
    expect(printed).not.toContain(session.value);
    const address = await app.page.evaluate(() => location.href);
    expect(address).not.toContain(secret);
    const { read, holding } = await filesHolding(home, [secret, session.value]);
    expect(holding).toEqual([]);
    expect(read).toBeGreaterThan(0);
  });

  it('refuses the cookie of an earlier launch on the same port (403)', async () => {
    const port = Number(new URL(origin).port);
    await app.close();
    app = await startBrowserApp({ LABELDESK_HOME: home, ...NO_KEYCHAIN }, port);
    expect(new URL(app.url).origin).toBe(origin);
    const earlier = await app.browser.newContext();
    extraContexts.push(earlier);
    await earlier.addCookies([session]);
    const errors = await refusedPage(earlier, origin);
    expect(errors.join('\n')).toMatch(/403/);
    expect(await rawHandshake(origin, `${session.name}=${session.value}`)).toBe(403);
    // The printed address of this launch still works, and sets a new session.
    await app.page.goto(app.url);
    await bridgeWorks(app.page);
    const renewed = await app.page.context().cookies(origin);
    expect(renewed[0]?.value).not.toBe(session.value);
  });
});
