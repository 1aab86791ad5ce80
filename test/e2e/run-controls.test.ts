/**
 * Steering a live run from the Runs screen against a hosted `labeldesk serve` (null engine, slow
 * answers, behind a logging proxy so the test sees every image sent): the progress bar rises;
 * Pause sends nothing more; Resume goes on; Cancel ends it; Start again labels only what is left;
 * the corrupt JPEG is listed with its code and sentence, and Retry sends it again. Last, the
 * bridge drops (the app refuses a message over 8 MiB, here a pasted 9 MB "path") and the page
 * reconnects on its own, with the run's state and the library intact.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../support/cli-media.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { runServe, type ServeProcess } from '../support/run-serve.js';
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
} from './browser-app.js';

const KEY = `ldk_e2e_controls_${randomBytes(8).toString('hex')}`;
const GRANT = 1000;
const PHOTOS = 24;
const COST = 4; // objects, per image
const CORRUPT = 'a-cut-short.jpg';

let app: BrowserApp;
let hosted: ServeProcess;
let proxy: FaultProxy;
let folder: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const tmp = await workspace('labeldesk-e2e-controls-');
  ({ folder, remove } = tmp);
  const [first] = await distinctJpegs(folder, PHOTOS);
  await writeFile(join(folder, CORRUPT), (await readFile(first as string)).subarray(0, 600));
  hosted = await runServe([
    ...['--data', join(tmp.dir, 'hosted'), '--key', `${KEY}:${GRANT}`],
    ...['--engine', 'null', '--latency-ms', '700'],
  ]);
  proxy = await startFaultProxy(hosted.url);
  app = await startBrowserApp({ LABELDESK_HOME: join(tmp.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await hosted?.stop();
  await remove?.();
});

const sent = () => proxy.forwarded('POST', /^\/infer\/image/);
const lost = async () => GRANT - (await keyBalance(hosted.url, KEY)).remaining;
const labelledIn = (text: string) => Number(/(\d+) labelled/.exec(text)?.[1]);

describe('run controls in a live run', () => {
  let bar: ReturnType<Page['getByRole']>;
  const now = async () => Number(await bar.getAttribute('aria-valuenow'));

  it('shows the progress bar rising, and Pause sends nothing more', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, proxy.url, KEY);
    const row = await addFolderByPath(page, folder);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*25/);
    await page.keyboard.press('Control+3');
    await page.getByText(`About ${(PHOTOS + 1) * COST} frames: 25 images × 4`).waitFor();

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    bar = page.getByRole('progressbar', { name: 'Run progress' });
    await bar.waitFor();
    const seen: number[] = [];
    while (seen.length === 0 || (seen.at(-1) as number) < 5) {
      seen.push(await now());
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBeGreaterThan(1);
    expect(await bar.getAttribute('aria-valuemax')).toBe('25');

    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = runStatus(page, /^Paused: \d+ of 25 files done\.$/);
    await paused.waitFor({ timeout: 15_000 });
    const at = { value: await now(), sent: sent(), lost: await lost() };
    await screenshot(page, 'run-controls-paused');
    await new Promise((r) => setTimeout(r, 2000));
    expect({ value: await now(), sent: sent(), lost: await lost() }).toEqual(at);
    expect(at.value).toBeLessThan(25);
    expect(await page.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Start', exact: true }).isDisabled()).toBe(true);
  }, 120_000);

  it('resumes, then cancels, and Start again labels only what is left', async () => {
    const { page } = app;
    const before = await now();
    await page.getByRole('button', { name: 'Resume' }).click();
    await runStatus(page, /^Labelling: /).waitFor({ timeout: 15_000 });
    await expect.poll(now, { timeout: 15_000 }).toBeGreaterThan(before);

    await page.getByRole('button', { name: 'Cancel' }).click();
    const cancelled = runStatus(page, /^Cancelled: /);
    await cancelled.waitFor({ timeout: 15_000 });
    await screenshot(page, 'run-controls-cancelled');
    const text = (await cancelled.textContent()) ?? '';
    // One tally over pause and resume: nothing counted twice (as reused, or failed again).
    expect(text).toMatch(/^Cancelled: \d+ labelled, [01] failed, \d+ frames spent$/);
    const labelled = labelledIn(text);
    expect(labelled).toBeLessThan(PHOTOS);
    expect(framesSpentIn(text)).toBe(labelled * COST);
    expect(await lost()).toBe(labelled * COST);
    const sentBefore = sent();

    // Only the photos not labelled yet are estimated (the corrupt one too, if it was not tried).
    const estimate = page.getByText(/^About \d+ frames: \d+ images? × 4/);
    await estimate.waitFor({ timeout: 15_000 });
    const [, frames, images] = /About (\d+) frames: (\d+) image/.exec(
      (await estimate.textContent()) ?? '',
    ) as RegExpExecArray;
    const left = PHOTOS - labelled;
    expect([left, left + 1]).toContain(Number(images));
    expect(Number(frames)).toBe(Number(images) * COST);

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const done = runStatus(page, /^Done: /);
    await done.waitFor({ timeout: 60_000 });
    const final = (await done.textContent()) ?? '';
    expect(labelledIn(final)).toBe(left);
    expect(framesSpentIn(final)).toBe(left * COST);
    expect(sent() - sentBefore).toBe(Number(images));
    // Every photo paid once, the corrupt JPEG never.
    expect(await lost()).toBe(PHOTOS * COST);
  }, 120_000);

  it('lists the corrupt JPEG with its code and sentence, and Retry sends it again', async () => {
    const { page } = app;
    const failed = page.getByRole('region', { name: 'Failed files' });
    await failed.getByRole('heading', { name: 'Failed files (1 file)' }).waitFor();
    const item = failed.getByRole('listitem');
    expect(await item.count()).toBe(1);
    expect(await item.textContent()).toContain(join(folder, CORRUPT));
    expect(await item.locator('code').textContent()).toBe('undecodable_media');
    await screenshot(page, 'run-controls-failed');

    const sentBefore = sent();
    await failed.getByRole('button', { name: 'Retry' }).click();
    // Sent and refused again: nothing labelled, nothing charged.
    const done = runStatus(page, /^Done: 0 labelled, 1 failed, 0 frames spent$/);
    await done.waitFor({ timeout: 30_000 });
    expect(sent() - sentBefore).toBe(1);
    expect(await lost()).toBe(PHOTOS * COST);
    await failed.getByRole('heading', { name: 'Failed files (1 file)' }).waitFor();
  }, 60_000);

  it('reconnects on its own after the bridge drops, and shows the same state', async () => {
    const { page } = app;
    const drops: number[] = [];
    page.on('websocket', () => drops.push(Date.now()));
    await page.keyboard.press('Control+2');
    await page.getByRole('button', { name: 'Add folder' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Folder path' }).fill(`/${'x'.repeat(9_000_000)}`);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('The connection to LabelDesk was lost; reconnecting.').waitFor();
    await screenshot(page, 'bridge-dropped');
    await expect.poll(() => drops.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByText(/Lost the connection to LabelDesk/).count(), { timeout: 30_000 })
      .toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The new socket answers: the folder, its counts, and the last run as they were.
    const row = page.getByRole('listitem', { name: folder });
    await expect.poll(() => row.textContent()).toMatch(/Images\s*25.*Labelled\s*24.*Failed\s*1/);
    await page.keyboard.press('Control+3');
    await runStatus(page, /^Done: 0 labelled, 1 failed, 0 frames spent$/).waitFor();
    await screenshot(page, 'bridge-reconnected');
  }, 60_000);
});
