/**
 * Issue 16 in the app, as a person uses it, against a hosted service that publishes no frame cost
 * and no `credits` (a `labeldesk serve` behind a proxy that strips them): a run asks first, since
 * its cost is unknown until the first file, and then spends exactly what the key lost; "Check
 * service" says what was understood (the learnt cost among it) and spends nothing; a file sent is
 * drawn with its boxes, and the corner/centre setting moves them and is kept per service.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../support/cli-media.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { realMediaDir } from '../support/real-media.js';
import { runServe, type ServeProcess } from '../support/run-serve.js';
import { stripPublishedCosts } from '../support/unpublished-costs.js';
import {
  addFolderByPath,
  connectHosted,
  framesSpentIn,
  keyBalance,
  openApp,
  runStatus,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

const KEY = `ldk_e2e_${randomBytes(12).toString('hex')}`;
const GRANT = 500;
const COST = 4; // objects per image, as `labeldesk serve` charges it (and does not say)
const PHOTOS = 5;

let app: BrowserApp;
let hosted: ServeProcess;
let proxy: FaultProxy;
let photo: string;
let ws: Workspace;

beforeAll(async () => {
  photo = join(await realMediaDir(), 'fruits.jpg');
  ws = await workspace('labeldesk-e2e-check-');
  await distinctJpegs(ws.folder, PHOTOS);
  hosted = await runServe([
    '--data',
    join(ws.dir, 'hosted'),
    '--key',
    `${KEY}:${GRANT}`,
    '--engine',
    'null',
  ]);
  proxy = await startFaultProxy(hosted.url);
  stripPublishedCosts(proxy);
  app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await hosted?.stop();
  await ws?.remove();
});

const spent = async () => GRANT - (await keyBalance(hosted.url, KEY)).remaining;
const uploads = () => proxy.forwarded('POST', /^\/infer\//);

describe('a service that does not publish its costs', () => {
  it('a run asks first; Cancel sends nothing; accepting labels all and spends what the key lost', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, proxy.url, KEY);
    const row = await addFolderByPath(page, ws.folder);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*5/);
    await page.keyboard.press('Control+3');
    await page.getByText(`Cost unknown until the first file: ${PHOTOS} images × ?`).waitFor();

    const start = page.getByRole('button', { name: 'Start', exact: true });
    await start.click();
    const ask = page.getByRole('dialog', { name: 'Cost unknown' });
    await ask.getByText(/Only the first file.s cost is at risk/).waitFor();
    await screenshot(page, 'unknown-cost-dialog');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(uploads()).toBe(0);

    await start.click();
    await ask.getByRole('button', { name: 'Send the first file and learn the cost' }).click();
    const done = runStatus(page, /^Done/);
    await done.waitFor({ timeout: 60_000 });
    expect(await done.textContent()).toMatch(new RegExp(`${PHOTOS} labelled`));
    expect(framesSpentIn((await done.textContent()) ?? '')).toBe(PHOTOS * COST);
    expect(await spent()).toBe(PHOTOS * COST);
  }, 150_000);

  it('Check service reports each part (the learnt cost too) and spends nothing', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Service' }).click();
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
        hasText: `solutions[objects].frameCost — not published: using ${COST} frames per image (learnt from the service's count), the clip frame cost learnt from the first file sent`,
      })
      .waitFor();
    const left = GRANT - PHOTOS * COST;
    await parts
      .getByRole('listitem')
      .filter({ hasText: `key — understood: ${left} frames left` })
      .waitFor();
    expect(uploads()).toBe(PHOTOS);
    expect(await spent()).toBe(PHOTOS * COST);
  }, 60_000);

  it('a file sent is drawn with its boxes; centre moves them and is kept for this service', async () => {
    const { page } = app;
    const panel = page.getByRole('region', { name: 'Check service' });
    await panel.getByRole('textbox', { name: /File to send/ }).fill(photo);
    await panel.getByRole('button', { name: 'Send this file' }).click();
    const drawn = panel.getByRole('img', { name: /\d+ boxes returned by the service/ });
    await drawn.waitFor({ timeout: 60_000 });
    await panel
      .getByText(`${COST} frames spent: as learnt before (${COST} frames per image).`)
      .waitFor();
    expect(proxy.forwarded('POST', '/infer/image')).toBe(PHOTOS + 1);
    expect(await spent()).toBe((PHOTOS + 1) * COST);
    const rect = drawn.locator('rect').first();
    const cornerX = Number(await rect.getAttribute('x'));
    const width = Number(await rect.getAttribute('width'));
    await drawn.scrollIntoViewIfNeeded();
    await screenshot(page, 'check-service');

    await panel.getByRole('radio', { name: 'centre' }).check();
    await expect
      .poll(async () => Number(await rect.getAttribute('x')), { timeout: 10_000 })
      .toBeCloseTo(cornerX - width / 2, 6);
    // Kept per service in the library, where the adapter reads it (saved once the call lands).
    const saved = () => {
      const db = new Database(join(ws.dir, 'home', 'library.sqlite'), { readonly: true });
      try {
        const row = db
          .prepare('SELECT value FROM settings WHERE key = ?')
          .get(`service.reading:${proxy.url}`) as { value: string } | undefined;
        return JSON.parse(row?.value ?? '{}') as unknown;
      } finally {
        db.close();
      }
    };
    await expect.poll(saved, { timeout: 10_000 }).toEqual({ boxOrigin: 'centre' });
    expect(await spent()).toBe((PHOTOS + 1) * COST);
  }, 90_000);
});
