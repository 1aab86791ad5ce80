/**
 * The Quality screen's "COCO summary" as a person uses it at 1280×800: real photos labelled by the
 * embedded model, ground truth imported from COCO (the model's boxes moved and some left out, so
 * the figures are neither 0 nor 1). The twelve figures appear only once the disclosure is opened,
 * and they are the ones `labeldesk evaluate --coco --json` prints for the same library.
 * Screenshot in test-results/.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COCO_STATS } from '../../electron/shared/coco-stats.js';
import { cliEnv, lastJson, runCli } from '../support/cli-run.js';
import { realMediaDir } from '../support/real-media.js';
import {
  NO_KEYCHAIN,
  openApp,
  screenshot,
  startBrowserApp,
  type BrowserApp,
} from './browser-app.js';
import { labelledHome } from './label-folder.js';
import { importTruthFromModel } from './truth-from-model.js';

let app: BrowserApp | undefined;
let home: Awaited<ReturnType<typeof labelledHome>> | undefined;
let cli: Record<string, number> = {};

beforeAll(async () => {
  const media = await realMediaDir();
  const photos = (await readdir(media)).filter((n) => /\.(jpg|png)$/.test(n)).sort();
  home = await labelledHome({ sub: 'coco', photos: photos.slice(0, 8) });
  const env = cliEnv(home.home, NO_KEYCHAIN);
  // Truth: each model box moved by a few pixels (more for some), every fourth one left out.
  await importTruthFromModel(home.folder, env, (coco) => ({
    ...coco,
    annotations: coco.annotations
      .filter((_a, k) => k % 4 !== 3)
      .map((a, k) => ({ ...a, bbox: a.bbox.map((v, j) => (j < 2 ? v + (k % 5) * 3 : v)) })),
  }));
  const evaluated = await runCli(['evaluate', '--coco', '--json'], env);
  expect(evaluated.code, evaluated.stderr).toBe(0);
  cli = lastJson<{ coco: Record<string, number> }>(evaluated.stdout).coco;
  app = await startBrowserApp({ LABELDESK_HOME: home.home, ...NO_KEYCHAIN });
  await openApp(app);
}, 600_000);

afterAll(async () => {
  await app?.close();
  await home?.remove();
});

const shown = (v: number) => (v < 0 ? '—' : `${(v * 100).toFixed(1)} %`);

describe('Quality: COCO summary', () => {
  it('computes COCO’s twelve figures when opened, equal to the CLI’s', async () => {
    const page = app!.page;
    await page.keyboard.press('Control+5');
    const toggle = page.getByRole('button', { name: 'COCO summary' });
    await toggle.waitFor({ timeout: 60_000 });
    // Closed: not computed, not shown.
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const table = page.getByRole('table', { name: 'COCO summary' });
    expect(await table.count()).toBe(0);

    await toggle.click();
    await table.waitFor({ timeout: 60_000 });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const figures = Object.fromEntries(
      await table
        .locator('tbody th')
        .evaluateAll((ths) =>
          ths.map((th) => [th.textContent ?? '', th.nextElementSibling?.textContent ?? '']),
        ),
    );
    expect(Object.keys(figures)).toHaveLength(12);
    for (const s of COCO_STATS) {
      expect(figures[s.name], s.name).toBe(shown(cli[s.key] as number));
    }
    // Something was measured: the library's boxes are not all one size or all found.
    expect(cli['ap']).toBeGreaterThan(0);
    expect(cli['ap']).toBeLessThan(1);

    const box = await table.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, 'quality-coco-summary');
  });
});
