/**
 * Credits as a person meets them on the Runs screen, against hosted `labeldesk serve` processes
 * (null engine): a key granted enough for 3 of 8 images stops the run and says so, a run budget
 * stops at the budget, and a used-up hour makes the run wait with the time it resumes. What the
 * app says it spent is what the key lost (GET /key with the key itself), never more.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../support/cli-media.js';
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

const key = (name: string) => `ldk_e2e_${name}_${randomBytes(8).toString('hex')}`;
/** objects costs 4 frames an image: 12 frames are 3 of the 8 images. */
const SMALL = key('small');
const ROOMY = key('roomy');
const HOURLY = key('hourly');

let app: BrowserApp;
let hosted: ServeProcess;
let hourly: ServeProcess;
let folder: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const tmp = await workspace('labeldesk-e2e-grant-');
  ({ folder, remove } = tmp);
  await distinctJpegs(folder, 8);
  const serve = (name: string, ...args: string[]) =>
    runServe(['--data', join(tmp.dir, name), '--engine', 'null', '--latency-ms', '150', ...args]);
  [hosted, hourly] = await Promise.all([
    serve('hosted', '--key', `${SMALL}:12`, '--key', `${ROOMY}:100`),
    serve('hourly', '--key', `${HOURLY}:100`, '--hour-frames', '8'),
  ]);
  app = await startBrowserApp({ LABELDESK_HOME: join(tmp.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await hosted?.stop();
  await hourly?.stop();
  await remove?.();
});

/** Starts from the Runs screen and samples the key straight from the service until the run ends. */
async function runAndWatchKey(page: Page, baseUrl: string, apiKey: string, final: RegExp) {
  const seen: number[] = [];
  let ended = false;
  const sampling = (async () => {
    while (!ended) {
      seen.push((await keyBalance(baseUrl, apiKey)).remaining);
      await new Promise((r) => setTimeout(r, 40));
    }
  })();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const status = runStatus(page, final);
  await status.waitFor({ timeout: 60_000 });
  ended = true;
  await sampling;
  return { text: (await status.textContent()) ?? '', seen };
}

async function lastHistoryRow(page: Page): Promise<string[]> {
  const row = page.getByRole('table', { name: 'Run history' }).getByRole('row').nth(1);
  return row.getByRole('cell').allTextContents();
}

describe('a key with a small grant', () => {
  it('stops the run for credits, says so, and spends exactly what the key had', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, hosted.url, SMALL);
    const row = await addFolderByPath(page, folder);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*8/);

    await page.keyboard.press('Control+3');
    await page.getByText('About 32 frames: 8 images × 4 — 12 left, 20,000 this hour').waitFor();
    await page
      .getByText('More than the key has left: the run stops when the frames run out.')
      .waitFor();
    const { text, seen } = await runAndWatchKey(page, hosted.url, SMALL, /^Stopped/);
    await screenshot(page, 'small-grant-stopped');

    expect(text).toBe(
      'Stopped: The key has no frames left for this file. 3 labelled, 0 failed, 12 frames spent',
    );
    expect(seen.length).toBeGreaterThan(3);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    // Never more in flight than the key had: each sample is a whole number of images below 12.
    expect(seen.every((r) => r <= 12 && r % 4 === 0)).toBe(true);
    const after = await keyBalance(hosted.url, SMALL);
    expect(after.remaining).toBe(0);
    expect(framesSpentIn(text)).toBe(12 - after.remaining);
    expect((await lastHistoryRow(page)).slice(3)).toEqual(['stopped', '8', '32', '12']);
    // The files not sent are still new, and the estimate says what the next run would cost.
    await page.getByText('About 20 frames: 5 images × 4 — 0 left').waitFor({ timeout: 15_000 });
  }, 120_000);

  it('stops at a run budget of two images', async () => {
    const { page } = app;
    await connectHosted(page, hosted.url, ROOMY);
    await page.keyboard.press('Control+3');
    await page.getByText('About 20 frames: 5 images × 4 — 100 left').waitFor();
    await page.getByRole('spinbutton', { name: 'Budget (frames)', exact: true }).fill('8');
    const { text } = await runAndWatchKey(page, hosted.url, ROOMY, /^Stopped/);
    await screenshot(page, 'small-grant-budget');

    expect(text).toBe(
      // The 3 labelled by the first run are counted, not sent again.
      'Stopped: The budget for this run is spent. 2 labelled, 3 reused, 0 failed, 8 frames spent',
    );
    expect((await keyBalance(hosted.url, ROOMY)).remaining).toBe(100 - 8);
    expect((await lastHistoryRow(page)).slice(3)).toEqual(['stopped', '5', '20', '8']);
  }, 60_000);

  it('waits for the next hour when the hour is used up, with the time it resumes', async () => {
    const { page } = app;
    await connectHosted(page, hourly.url, HOURLY);
    await page.keyboard.press('Control+3');
    await page.getByRole('spinbutton', { name: 'Budget (frames)', exact: true }).fill('');
    await page
      .getByText('More than this hour allows: the run waits for the next hour to go on.')
      .waitFor();
    const { text } = await runAndWatchKey(page, hourly.url, HOURLY, /^Waiting for credits/);
    expect(text).toMatch(
      /^Waiting for credits until \d\d:\d\d\. Sending resumes by itself then\.$/,
    );
    const bar = page.getByRole('progressbar', { name: 'Run progress' });
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('2');
    // Nothing is sent while it waits: no rate, no "about 0 s left".
    expect(await page.getByText(/files\/s|about \d.* left/).count()).toBe(0);
    // What is left while it waits: the one photo not sent (and nothing "uncertain"). The 2 photos
    // this run paid for before the hour ran out are its own (issue 24 §4), not "already labelled".
    await page.getByText('About 4 frames: 1 image × 4 — 92 left, 0 this hour').waitFor();
    await page
      .getByText('2 files sent by the run going now: counted in its progress, not here.')
      .waitFor();
    await page.getByText('5 files already labelled: no frames spent on them.').waitFor();
    expect(await page.getByText(/uncertain/).count()).toBe(0);
    await screenshot(page, 'small-grant-waiting');
    const balance = await keyBalance(hourly.url, HOURLY);
    expect(balance).toMatchObject({ remaining: 92, hourRemaining: 0 });

    await page.getByRole('button', { name: 'Cancel' }).click();
    const cancelled = runStatus(page, /^Cancelled/);
    await cancelled.waitFor({ timeout: 15_000 });
    expect(await cancelled.textContent()).toBe(
      'Cancelled: 2 labelled, 5 reused, 0 failed, 8 frames spent',
    );
    expect((await keyBalance(hourly.url, HOURLY)).remaining).toBe(92);
    // Once the run has ended its files are already labelled, as `plan` counts them.
    await page
      .getByText('7 files already labelled: no frames spent on them.')
      .waitFor({ timeout: 15_000 });
    expect(await page.getByText(/sent by the run going now/).count()).toBe(0);
  }, 60_000);
});
