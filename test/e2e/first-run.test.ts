/**
 * First run on a machine without a keychain, through browser mode on the real application layer,
 * the embedded service and real models: add a folder, see the estimate, run, browse the grid, open
 * an item and see its boxes. Takes the README's screenshots on the way.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realMediaDir } from '../support/real-media.js';
import { tempDir } from '../support/temp-dir.js';
import {
  addFolderByPath,
  docsScreenshot,
  NO_KEYCHAIN,
  startBrowserApp,
  type BrowserApp,
} from './browser-app.js';

const PHOTOS = ['messi5.jpg', 'fruits.jpg', 'basketball1.png'];

let app: BrowserApp;
let folder: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const media = await realMediaDir();
  const tmp = await tempDir('labeldesk-e2e-');
  remove = tmp.remove;
  folder = join(tmp.dir, 'site-a');
  await mkdir(folder);
  for (const name of PHOTOS) await copyFile(join(media, name), join(folder, name));
  app = await startBrowserApp({ LABELDESK_HOME: join(tmp.dir, 'home'), ...NO_KEYCHAIN });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await remove?.();
});

describe('first run without a keychain', () => {
  it('connects with the launch secret, then keeps it out of the address bar and storage', async () => {
    const { page } = app;
    await page.goto(app.url);
    await page
      .getByRole('status')
      .filter({ hasText: /keychain/i })
      .waitFor();
    expect(page.url()).not.toContain('secret');
    const stored = await page.evaluate(() => [
      JSON.stringify({ ...localStorage }),
      JSON.stringify({ ...sessionStorage }),
    ]);
    expect(stored).toEqual(['{}', '{}']);
    await page.getByRole('navigation').getByRole('button', { name: 'Library' }).waitFor();
    expect(await page.getByRole('button', { name: 'Library' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('adds a folder by typing its path', async () => {
    const row = await addFolderByPath(app.page, folder);
    expect(await row.getByRole('switch', { name: 'Watch' }).count()).toBe(1);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*3/);
  });

  it('estimates, runs to Done, and shows the spent frames in the history', async () => {
    const { page } = app;
    await page.keyboard.press('Control+3');
    const solution = page.getByRole('combobox', { name: 'Solution' });
    expect(await solution.inputValue()).toBe('objects');
    const estimate = page.getByText(/About \d+ frames: 3 images/);
    await estimate.waitFor();
    const frames = Number(/About (\d+) frames/.exec((await estimate.textContent()) ?? '')?.[1]);
    expect(frames).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Start' }).click();
    const done = page.getByRole('status').filter({ hasText: /^Done/ });
    await done.waitFor({ timeout: 240_000 });
    expect(await done.textContent()).toMatch(/^Done: 3 labelled, 0 failed/);
    expect(await done.textContent()).toContain(`${frames} frames spent`);
    await page
      .getByRole('table', { name: 'Run history' })
      .getByRole('cell', { name: 'done' })
      .waitFor();
    await docsScreenshot(page, 'app-runs');
  }, 300_000);

  it('shows the grid named by file name, and an opened item with its boxes', async () => {
    const { page } = app;
    await page.keyboard.press('Control+1');
    const grid = page.getByRole('grid', { name: 'Library' });
    await grid.getByRole('gridcell', { name: /^messi5\.jpg, \d+ boxes/ }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('1');
    expect(await grid.getByRole('gridcell').count()).toBe(3);
    await page.getByRole('slider', { name: 'Minimum score' }).waitFor();
    await page.getByRole('combobox', { name: 'Class' }).selectOption('person');
    await grid.getByRole('gridcell', { name: /^messi5\.jpg/ }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await docsScreenshot(page, 'app-library');

    await grid.getByRole('gridcell', { name: /^messi5\.jpg/ }).dblclick();
    const boxes = page.getByRole('listbox', { name: 'Boxes' });
    await boxes.getByRole('option').first().waitFor();
    const names = await boxes
      .getByRole('option')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/^[a-z ]+ [01]\.\d\d$/);
    expect(names).toContainEqual(expect.stringMatching(/^person /));
    await docsScreenshot(page, 'app-viewer');

    await page.keyboard.press('Escape');
    await grid.waitFor();
    // Keyboard: the grid moves focus with the arrows and opens with Enter.
    await grid.getByRole('gridcell').first().click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Back to library' }).click();
    await grid.waitFor();
  }, 120_000);
});
