/**
 * Box labels in image review, as a person draws them: two boxes that share their top-left corner
 * get two readable labels, the second moved inside its box instead of over the first (the layout
 * itself is unit-tested in test/unit/renderer/label-layout.test.ts). The screenshot is the check
 * a person makes: test-results/box-labels-shared-corner.png.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, cliJson } from '../support/cli-run.js';
import { realMediaDir } from '../support/real-media.js';
import {
  NO_KEYCHAIN,
  openApp,
  screenshot,
  startBrowserApp,
  type BrowserApp,
} from './browser-app.js';
import { openItem } from './label-folder.js';
import { at, drag, options, stageBox } from './review-steps.js';

const env = { ...NO_KEYCHAIN, LABELDESK_EMBEDDED_ENGINE: 'null' };
let app: BrowserApp | undefined;
let remove: () => Promise<void>;

beforeAll(async () => {
  const h = await cliHome();
  remove = h.remove;
  const folder = join(h.dir, 'photos');
  await mkdir(folder);
  await copyFile(join(await realMediaDir(), 'messi5.jpg'), join(folder, 'messi5.jpg'));
  await cliJson(['label', folder, '-y'], cliEnv(h.home, env));
  app = await startBrowserApp({ LABELDESK_HOME: h.home, ...env });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await remove?.();
});

describe('labels of boxes sharing a corner', () => {
  it('are both readable: the second label moves inside its box', async () => {
    const page = app!.page;
    await openApp(app!);
    await page.keyboard.press('Control+1');
    await openItem(page, 'messi5.jpg');
    const stage = await stageBox(page, 'messi5.jpg');
    // Only the person's boxes: the stand-in engine's are hidden by the threshold.
    await page.getByRole('slider', { name: 'Score threshold' }).fill('1');
    const label = page.getByRole('combobox', { name: 'Label' });
    for (const [name, corner] of [
      ['goalpost', { x: 0.85, y: 0.7 }],
      ['referee', { x: 0.7, y: 0.5 }],
    ] as const) {
      await page.getByRole('button', { name: 'Draw box' }).click();
      await drag(page, at(stage, 0.45, 0.3), at(stage, corner.x, corner.y));
      await label.fill(name);
      await page.keyboard.press('Enter');
    }
    await expect
      .poll(async () => (await options(page)).map((o) => o.name.split(' ')[0]).sort())
      .toEqual(['goalpost', 'referee']);
    const [a, b] = (await options(page)).map((o) => o.bbox);
    expect(a!.x).toBeCloseTo(b!.x, 2);
    expect(a!.y).toBeCloseTo(b!.y, 2);
    // A click where there is no box selects none: both labels in their class colours.
    const empty = at(stage, 0.1, 0.9);
    await page.mouse.click(empty.x, empty.y);
    await screenshot(page, 'box-labels-shared-corner');
  }, 120_000);
});
