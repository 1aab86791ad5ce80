/**
 * "Check service" on the Service screen, as a person uses it, against a hosted service that
 * publishes no frame cost and no `credits` (a `labeldesk serve` behind a proxy that strips them):
 * the report says what was understood and spends nothing; a file sent draws its boxes, says the
 * cost it learnt, and the corner/centre setting moves the boxes.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { realMediaDir } from '../support/real-media.js';
import { runServe, type ServeProcess } from '../support/run-serve.js';
import { tempDir } from '../support/temp-dir.js';
import { stripPublishedCosts } from '../support/unpublished-costs.js';
import { screenshot, startBrowserApp, type BrowserApp } from './browser-app.js';

const KEY = `ldk_e2e_${randomBytes(12).toString('hex')}`;
const GRANT = 500;

let app: BrowserApp;
let hosted: ServeProcess;
let proxy: FaultProxy;
let photo: string;
let remove: () => Promise<void>;
let home: string;

beforeAll(async () => {
  photo = join(await realMediaDir(), 'fruits.jpg');
  const tmp = await tempDir('labeldesk-e2e-check-');
  remove = tmp.remove;
  hosted = await runServe([
    '--data',
    join(tmp.dir, 'hosted'),
    '--key',
    `${KEY}:${GRANT}`,
    '--engine',
    'null',
  ]);
  proxy = await startFaultProxy(hosted.url);
  stripPublishedCosts(proxy);
  home = join(tmp.dir, 'home');
  app = await startBrowserApp({ LABELDESK_HOME: home });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await hosted?.stop();
  await remove?.();
});

const remaining = async () => {
  const res = await fetch(`${hosted.url}/key`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { remaining: number }).remaining;
};

describe('Check service', () => {
  it('reports each part, spends nothing; a file sent is drawn with its boxes and teaches the cost', async () => {
    const { page } = app;
    await page.goto(app.url);
    await page.getByText('Embedded service · online').waitFor({ timeout: 90_000 });
    await page.keyboard.press('Control+4');
    const form = page.getByRole('form', { name: 'Hosted service' });
    await form.getByRole('textbox', { name: 'Base URL' }).fill(proxy.url);
    await form.getByLabel('API key').fill(KEY);
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.getByRole('status').filter({ hasText: 'Connected to' }).waitFor({ timeout: 30_000 });

    const panel = page.getByRole('region', { name: 'Check service' });
    await panel.getByRole('button', { name: 'Check service', exact: true }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: 'Everything LabelDesk needs is understood.' })
      .waitFor({ timeout: 30_000 });
    const parts = panel.getByRole('list', { name: 'What LabelDesk understood' });
    await parts
      .getByRole('listitem')
      .filter({
        hasText:
          /solutions\[objects\]\.frameCost.*not published: using the image and clip frame cost learnt from the first file sent/,
      })
      .waitFor();
    await parts
      .getByRole('listitem')
      .filter({ hasText: `key — understood: ${GRANT} frames left` })
      .waitFor();
    expect(proxy.forwarded('POST', /^\/infer\//)).toBe(0);
    expect(await remaining()).toBe(GRANT);

    await panel.getByRole('textbox', { name: /File to send/ }).fill(photo);
    await panel.getByRole('button', { name: 'Send this file' }).click();
    const drawn = panel.getByRole('img', { name: /\d+ boxes returned by the service/ });
    await drawn.waitFor({ timeout: 60_000 });
    await panel
      .getByText(/learnt: 4 frames per image \(not published by the service\)/)
      .first()
      .waitFor();
    expect(proxy.forwarded('POST', '/infer/image')).toBe(1);
    expect(await remaining()).toBe(GRANT - 4);
    const rect = drawn.locator('rect').first();
    const cornerX = Number(await rect.getAttribute('x'));
    const width = Number(await rect.getAttribute('width'));
    await drawn.scrollIntoViewIfNeeded();
    await screenshot(page, 'check-service');

    await panel.getByRole('radio', { name: 'centre' }).check();
    await expect
      .poll(async () => Number(await rect.getAttribute('x')), { timeout: 10_000 })
      .toBeCloseTo(cornerX - width / 2, 6);
    // Kept per service in the library, where the adapter reads it.
    const db = new Database(join(home, 'library.sqlite'), { readonly: true });
    try {
      const row = db
        .prepare('SELECT value FROM settings WHERE key = ?')
        .get(`service.reading:${proxy.url}`) as { value: string } | undefined;
      expect(JSON.parse(row?.value ?? '{}')).toEqual({ boxOrigin: 'centre' });
    } finally {
      db.close();
    }
    expect(await remaining()).toBe(GRANT - 4);
  }, 180_000);
});
