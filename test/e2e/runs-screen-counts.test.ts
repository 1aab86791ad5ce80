/**
 * Issue 24 §4: the Runs screen mid-run and after Done, against a hosted `labeldesk serve` with
 * slow answers. While the run goes, the estimate does not call the files it just paid for
 * "already labelled" nor the ones on their way "uncertain": it counts them as the run's; after
 * Done it says what `plan` says (all labelled, none uncertain). Both times the screen's counts are
 * compared with `labeldesk plan --json` run on the same library beside the app. Screenshots of both.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../support/cli-media.js';
import { cliEnv, cliJson } from '../support/cli-run.js';
import { runServe, type ServeProcess } from '../support/run-serve.js';
import {
  addFolderByPath,
  connectHosted,
  openApp,
  runStatus,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
} from './browser-app.js';

const KEY = `ldk_e2e_counts_${randomBytes(8).toString('hex')}`;
const PHOTOS = 16;

let app: BrowserApp;
let hosted: ServeProcess;
let folder: string;
let home: string;
let remove: () => Promise<void>;

interface PlanJson {
  found: number;
  toLabel: { images: number };
  alreadyLabelled: number;
  inRun?: number;
  uncertain: unknown[];
}

/** `labeldesk plan` on the app's library, beside the app, as a person would run it. */
const planNow = () => cliJson<PlanJson>(['plan', folder, '--service', hosted.url], cliEnv(home));

/** The number a sentence of the Runs screen's estimate gives, 0 when the sentence is absent. */
async function shown(page: BrowserApp['page'], sentence: RegExp): Promise<number> {
  const text = (await page.locator('main').textContent()) ?? '';
  return Number(sentence.exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  const tmp = await workspace('labeldesk-e2e-run-counts-');
  ({ folder, remove } = tmp);
  await distinctJpegs(folder, PHOTOS);
  hosted = await runServe([
    ...['--data', join(tmp.dir, 'hosted'), '--key', `${KEY}:1000`],
    ...['--engine', 'null', '--latency-ms', '2000'],
  ]);
  home = join(tmp.dir, 'home');
  app = await startBrowserApp({ LABELDESK_HOME: home });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await hosted?.stop();
  await remove?.();
});

describe('the Runs screen counts', () => {
  it("mid-run counts the run's files apart; after Done none is uncertain", async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, hosted.url, KEY);
    const row = await addFolderByPath(page, folder);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*16/);
    await page.keyboard.press('Control+3');
    await page.getByText(/About \d+ frames: 16 images/).waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Run progress' });
    await bar.waitFor();
    const inRun = page.getByText(/files? sent by the run going now/);
    await inRun.waitFor({ timeout: 30_000 });
    // A few answered, the rest on their way: the time left shows too.
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    await screenshot(page, 'runs-screen-mid-run');
    const body = (await page.locator('main').textContent()) ?? '';
    if (Number(await bar.getAttribute('aria-valuenow')) < PHOTOS) {
      expect(body).not.toMatch(/may already have been charged/);
      expect(body).not.toMatch(/already labelled: no frames spent/);
    }
    // `plan` beside the running app: the files on their way are the run's, not uncertain.
    const running = await planNow();
    expect(running.uncertain).toEqual([]);
    expect(running.inRun).toBeGreaterThan(0);
    expect((running.inRun ?? 0) + running.alreadyLabelled + running.toLabel.images).toBe(PHOTOS);

    // Paused, nothing more is sent (and the lock is free, so `plan` sees the paused run's files
    // as labelled): the same files to label, none uncertain, the same files done.
    await page.getByRole('button', { name: 'Pause' }).click();
    await runStatus(page, /^Paused: /).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => shown(page, /(\d+) files? sent by the run going now/))
      .toBeGreaterThan(0);
    const paused = await planNow();
    expect(paused.uncertain).toEqual([]);
    expect(paused.found).toBe(PHOTOS);
    expect(paused.toLabel.images).toBe(await shown(page, /About \d+ frames?: (\d+) images?/));
    expect((paused.inRun ?? 0) + paused.alreadyLabelled).toBe(
      (await shown(page, /(\d+) files? sent by the run going now/)) +
        (await shown(page, /(\d+) files? already labelled/)),
    );
    await page.getByRole('button', { name: 'Resume' }).click();

    const done = runStatus(page, /^Done: /);
    await done.waitFor({ timeout: 90_000 });
    await page.getByText('16 files already labelled: no frames spent on them.').waitFor();
    await screenshot(page, 'runs-screen-done');
    expect((await done.textContent()) ?? '').toMatch(/^Done: 16 labelled, 0 failed/);
    expect((await page.locator('main').textContent()) ?? '').not.toMatch(/uncertain/);
    const after = await planNow();
    expect(after).toMatchObject({ found: PHOTOS, alreadyLabelled: PHOTOS, uncertain: [] });
    expect(after.toLabel.images).toBe(0);
    expect(after.inRun).toBeUndefined();
  }, 180_000);
});
