/**
 * Offline review: a folder labelled by a hosted service on real models, then the service stopped.
 * With nothing reachable, a person still reviews (moves a box by 10 picture pixels with the keyboard,
 * deletes one, accepts one) and exports from the dialog; the COCO file, read back against the
 * photo's true pixel size, holds exactly the accepted box where the person put it.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCoco } from '../support/cli-exports.js';
import { orientedJpeg } from '../support/cli-media.js';
import { realMediaDir } from '../support/real-media.js';
import { runServe, type ServeProcess } from '../support/run-serve.js';
import { tempDir } from '../support/temp-dir.js';
import {
  addFolderByPath,
  connectHosted,
  openApp,
  screenshot,
  startBrowserApp,
  type BrowserApp,
} from './browser-app.js';
import { openItem } from './label-folder.js';
import { at, drag, options, stageBox } from './review-steps.js';

const KEY = `ldk_e2e_${randomBytes(12).toString('hex')}`;
const PHOTO = 'fruits.jpg';
const TURNED = 'turned.jpg';

let app: BrowserApp;
let hosted: ServeProcess;
let dir: string;
let folder: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('labeldesk-e2e-offline-');
  dir = tmp.dir;
  remove = tmp.remove;
  folder = join(dir, 'photos');
  await mkdir(folder);
  await copyFile(join(await realMediaDir(), PHOTO), join(folder, PHOTO));
  // Stored 320×240, shown 240×320 (EXIF orientation 6).
  await orientedJpeg(join(folder, TURNED));
  hosted = await runServe(['--data', join(dir, 'hosted'), '--key', `${KEY}:500`]);
  app = await startBrowserApp({ LABELDESK_HOME: join(dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await hosted?.stop();
  await remove?.();
});

describe('offline review', () => {
  it('labels a folder through the hosted service, which then stops', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, hosted.url, KEY);
    await addFolderByPath(page, folder);
    await page.keyboard.press('Control+3');
    await page.getByText(/About \d+ frames/).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /^Done/ }).waitFor({ timeout: 300_000 });

    await hosted.stop();
    await page.keyboard.press('Control+4');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The service is offline' })
      .waitFor({ timeout: 30_000 });
  }, 360_000);

  it('reviews and exports with no service reachable', async () => {
    const { page } = app;
    await page.keyboard.press('Control+1');
    await openItem(page, PHOTO);
    const list = page.getByRole('listbox', { name: 'Boxes' });
    await list.getByRole('option').nth(1).waitFor();
    const before = await options(page);

    // The first box: ten picture pixels right (Shift+→), then accepted (A).
    await list.getByRole('option').first().click();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('a');
    await expect.poll(() => list.getByRole('option').first().textContent()).toContain('accepted');
    // The second box: deleted.
    await list.getByRole('option').nth(1).click();
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await options(page)).length).toBe(before.length - 1);
    const moved = (await options(page))[0];
    await screenshot(page, 'offline-review');
    await page.keyboard.press('Escape');

    const destination = join(dir, 'exports', 'offline.json');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export boxes' });
    await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'COCO' });
    await dialog.getByRole('textbox', { name: 'Destination' }).fill(destination);
    await dialog.getByRole('checkbox', { name: 'Only accepted', exact: true }).check();
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    // Whatever ends the export (its status or an error) is read, so a failure says what it was.
    const ended = dialog.getByRole('status').or(dialog.getByRole('alert')).first();
    await ended.waitFor({ timeout: 60_000 });
    expect(await ended.textContent()).toMatch(/^Exported 1 box from 2 files/);

    await dialog.getByRole('button', { name: 'Close' }).click();
    const { width, height } = await sharp(join(folder, PHOTO)).metadata();
    const { boxes } = await readCoco(destination);
    expect(boxes).toHaveLength(1);
    const [box] = boxes;
    const first = before[0]!;
    // "orange 0.37", or a conflict's row "orange / apple · conflict" (its first class is chosen).
    const label = moved!.name.replace(/ · conflict$/, '').split(' / ')[0]!;
    expect(box).toMatchObject({ width, height, label: label.replace(/ [\d.]+.*$/, '') });
    // Ten pixels right, unless the picture's edge stops it first.
    const right = Math.min(first.bbox.x * width! + 10, (1 - first.bbox.w) * width!);
    expect(box!.xmin).toBeCloseTo(right, 1);
    expect(box!.ymin).toBeCloseTo(first.bbox.y * height!, 1);
    expect(box!.xmax - box!.xmin).toBeCloseTo(first.bbox.w * width!, 1);
  }, 120_000);

  it('shows an EXIF-rotated photo upright, and a box drawn on it exports in its shown pixels', async () => {
    const { page } = app;
    await page.keyboard.press('Control+1');
    await openItem(page, TURNED);
    await page.getByText('240×320').waitFor();
    const stage = await stageBox(page, TURNED);
    expect(stage.width / stage.height).toBeCloseTo(240 / 320, 2);
    await page.getByRole('button', { name: 'Draw box' }).click();
    // Frames 300 ms late, as on a loaded machine: the label field, focused a frame after the
    // draw, must not take the focus back once the label is given (it did, in CI).
    await page.evaluate(() => {
      const frame = window.requestAnimationFrame.bind(window);
      Object.assign(window, { onTimeFrame: frame });
      window.requestAnimationFrame = (paint) =>
        frame(() => window.setTimeout(() => paint(performance.now()), 300));
    });
    await drag(page, at(stage, 0.1, 0.1), at(stage, 0.5, 0.4));
    await page.getByRole('combobox', { name: 'Label' }).fill('marker');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(600);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focused()).not.toBe('Label');
    await page.evaluate(() => {
      const { onTimeFrame } = window as unknown as { onTimeFrame: typeof requestAnimationFrame };
      window.requestAnimationFrame = onTimeFrame;
    });
    await page
      .getByRole('listbox', { name: 'Boxes' })
      .getByRole('option', { name: /^marker\b/ })
      .waitFor();
    await screenshot(page, 'offline-review-rotated');
    await page.keyboard.press('Escape');

    const destination = join(dir, 'exports', 'rotated.json');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export boxes' });
    await dialog.getByRole('textbox', { name: 'Destination' }).fill(destination);
    await dialog.getByRole('checkbox', { name: 'Only accepted', exact: true }).check();
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /^Exported 2 boxes from 2 files/ })
      .waitFor({ timeout: 60_000 });
    const { boxes } = await readCoco(destination);
    const marker = boxes.find((b) => b.label === 'marker');
    expect(marker).toMatchObject({ width: 240, height: 320 });
    // Drawn from 10 % to 50 % across and 10 % to 40 % down the picture as shown.
    expect(marker!.xmin).toBeCloseTo(24, -1);
    expect(marker!.ymin).toBeCloseTo(32, -1);
    expect(marker!.xmax).toBeCloseTo(120, -1);
    expect(marker!.ymax).toBeCloseTo(128, -1);
  }, 120_000);
});
