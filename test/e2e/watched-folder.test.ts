/**
 * A watched folder (Watch on, the default) with Auto-label on, over the embedded service and real
 * models: a photo copied in slowly shows in the grid only once it is fully written, exactly once,
 * and is labelled with no click on Start; the frames the run spent are what the key lost.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSlowly } from '../support/cli-media.js';
import { realMediaDir } from '../support/real-media.js';
import {
  addFolderByPath,
  framesSpentIn,
  headerRemaining,
  openApp,
  runStatus,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
} from './browser-app.js';

const NAME = 'incoming.jpg';

let app: BrowserApp;
let folder: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const tmp = await workspace('labeldesk-e2e-watch-', 'inbox');
  ({ folder, remove } = tmp);
  app = await startBrowserApp({ LABELDESK_HOME: join(tmp.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await remove?.();
});

describe('a watched folder with auto-label', () => {
  it('turns watching and auto-label on from the Folders and Runs screens', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    const row = await addFolderByPath(page, folder);
    const watch = row.getByRole('switch', { name: 'Watch' });
    expect(await watch.getAttribute('aria-checked')).toBe('true');
    const auto = row.getByRole('switch', { name: 'Auto-label' });
    expect(await auto.getAttribute('aria-checked')).toBe('false');
    await auto.click();
    await expect.poll(() => auto.getAttribute('aria-checked')).toBe('true');

    await page.keyboard.press('Control+3');
    const settings = page.getByRole('form', { name: 'Auto-label settings' });
    const on = settings.getByRole('switch', { name: 'Auto-label watched folders' });
    expect(await on.getAttribute('aria-checked')).toBe('false');
    await on.click();
    await expect.poll(() => on.getAttribute('aria-checked')).toBe('true');
    await settings.getByText('0 frames spent this session').waitFor();
  }, 120_000);

  it('shows a slowly copied photo only once it is written, once, and labels it unasked', async () => {
    const { page } = app;
    const before = await headerRemaining(page);
    await page.keyboard.press('Control+1');
    const grid = page.getByRole('grid', { name: 'Library' });
    const cells = grid.getByRole('gridcell', { name: new RegExp(`^${NAME.replace('.', '\\.')}`) });
    await page.getByText('The library is empty').waitFor();

    const photo = await readFile(join(await realMediaDir(), 'messi5.jpg'));
    let written = false;
    const samples: { written: boolean; cells: number }[] = [];
    const writing = writeSlowly(join(folder, NAME), photo, 7, 250).then(() => {
      written = true;
    });
    let midShot = false;
    while (!written) {
      // Read `written` before counting: a cell seen while it was false was shown too early.
      const done = written;
      samples.push({ written: done, cells: await cells.count() });
      if (!midShot && samples.length > 5) {
        midShot = true;
        await screenshot(page, 'watched-folder-while-copying');
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await writing;
    expect(samples.filter((s) => !s.written).length).toBeGreaterThan(10);
    expect(samples.filter((s) => !s.written && s.cells > 0)).toEqual([]);

    await cells.first().waitFor({ timeout: 30_000 });
    // Labelled by auto-label: nobody clicked Start.
    await grid
      .getByRole('gridcell', { name: /^incoming\.jpg, \d+ box(es)?, labelled/ })
      .waitFor({ timeout: 120_000 });
    expect(await cells.count()).toBe(1);
    expect(await grid.getByRole('gridcell').count()).toBe(1);
    await screenshot(page, 'watched-folder-labelled');

    await page.keyboard.press('Control+3');
    const status = runStatus(page, /^Done/);
    await status.waitFor();
    const spent = framesSpentIn((await status.textContent()) ?? '');
    expect(await status.textContent()).toMatch(/^Done: 1 labelled, 0 failed/);
    expect(spent).toBe(4); // objects: 4 frames an image
    const history = page.getByRole('table', { name: 'Run history' });
    expect(await history.getByRole('row').count()).toBe(2); // the header and the one auto run
    await history.getByRole('row').nth(1).getByRole('cell', { name: 'done' }).waitFor();
    expect(await history.getByRole('row').nth(1).getByRole('cell').last().textContent()).toBe(
      String(spent),
    );
    const settings = page.getByRole('form', { name: 'Auto-label settings' });
    await settings.getByText(`${spent} frames spent this session`).waitFor();
    // The key lost exactly what the run says it spent.
    await expect.poll(() => headerRemaining(page), { timeout: 15_000 }).toBe(before - spent);
    await screenshot(page, 'watched-folder-runs');

    await page.keyboard.press('Control+2');
    const row = page.getByRole('listitem', { name: folder });
    await expect.poll(() => row.textContent()).toMatch(/Images\s*1.*Labelled\s*1/);
  }, 180_000);
});
