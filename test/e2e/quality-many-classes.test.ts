/**
 * The Quality screen with many classes, at the window size of a laptop (1280×800), as a person
 * sees it: 30 real photos labelled by the embedded model, then ground truth imported from COCO
 * that names each model box one of 70 classes (some with long names), so the confusions span
 * the whole matrix. Nothing may widen the page; the precision–recall tiles wrap and carry ticks;
 * the most frequent confusions are listed first; the matrix scrolls inside its frame with its
 * headers in view. Screenshots go to test-results/.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv } from '../support/cli-run.js';
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

const CLASSES = Array.from({ length: 70 }, (_, i) =>
  i % 9 === 0
    ? `a class with a rather long name number ${i + 1}`
    : `class ${String(i + 1).padStart(2, '0')}`,
);

let app: BrowserApp | undefined;
let home: Awaited<ReturnType<typeof labelledHome>> | undefined;

beforeAll(async () => {
  const media = await realMediaDir();
  const photos = (await readdir(media)).filter((n) => /\.(jpg|png)$/.test(n)).sort();
  home = await labelledHome({ sub: 'many', photos: photos.slice(0, 30) });
  const env = cliEnv(home.home, NO_KEYCHAIN);
  // Each model box becomes a person's box of one of 70 classes, in turn.
  await importTruthFromModel(home.folder, env, (coco) => {
    coco.categories = CLASSES.map((name, i) => ({ id: i + 1, name }));
    coco.annotations.forEach((a, k) => (a.category_id = (k % CLASSES.length) + 1));
    return coco;
  });
  app = await startBrowserApp({ LABELDESK_HOME: home.home, ...NO_KEYCHAIN });
  await openApp(app);
}, 600_000);

afterAll(async () => {
  await app?.close();
  await home?.remove();
});

describe('Quality with 70 classes at 1280×800', () => {
  it('fits the window: tiles wrap with ticks, top confusions first, the matrix scrolls inside', async () => {
    const page = app!.page;
    await page.keyboard.press('Control+5');
    const matrix = page.getByRole('table', { name: 'Confusions' });
    await matrix.waitFor({ timeout: 60_000 });
    await screenshot(page, 'quality-many-classes');

    // Nothing widens the page: no horizontal scroll of the window or of the screen's body.
    const overflow = await page.evaluate(() => {
      const body = document.querySelector('.quality-body') as HTMLElement;
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        body: body.scrollWidth - body.clientWidth,
      };
    });
    expect(overflow).toEqual({ page: 0, body: 0 });

    // Each precision–recall tile has ticks on both axes and lies inside the window.
    const tiles = page.getByRole('img', { name: /^Precision–recall curve of / });
    expect(await tiles.count()).toBeGreaterThan(10);
    const right = await tiles.evaluateAll((els) =>
      Math.max(...els.map((e) => e.getBoundingClientRect().right)),
    );
    expect(right).toBeLessThanOrEqual(1280);
    expect(await tiles.first().locator('.pr-tick-label').allTextContents()).toEqual([
      '0',
      '0',
      '0.5',
      '0.5',
      '1',
      '1',
    ]);

    await page.getByRole('heading', { name: 'Precision–recall curves' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'quality-many-classes-curves');

    // The most frequent confusions come first, the largest count on top.
    const top = page.getByRole('list', { name: 'Most frequent confusions' }).getByRole('listitem');
    expect(await top.count()).toBe(10);
    const counts = (await top.allTextContents()).map((t) => Number(t.split(' · ')[0]));
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);

    // The matrix scrolls in its frame; its header row and class column stay in view.
    const scroller = page.locator('.confusion-scroll');
    await scroller.scrollIntoViewIfNeeded();
    const sizes = await scroller.evaluate((el) => ({
      wide: el.scrollWidth > el.clientWidth,
      tall: el.scrollHeight > el.clientHeight,
    }));
    expect(sizes).toEqual({ wide: true, tall: true });
    await scroller.evaluate((el) => el.scrollTo(el.scrollWidth, el.scrollHeight));
    const stuck = await scroller.evaluate((el) => {
      const frame = el.getBoundingClientRect();
      const head = (
        el.querySelector('thead th:nth-child(3)') as HTMLElement
      ).getBoundingClientRect();
      const rowHead = (
        el.querySelector('tbody tr:last-child th') as HTMLElement
      ).getBoundingClientRect();
      return {
        headerTop: Math.round(head.top - frame.top),
        rowHeadLeft: Math.round(rowHead.left - frame.left),
      };
    });
    // 1 px: the frame's border.
    expect(stuck.headerTop).toBeLessThanOrEqual(1);
    expect(stuck.rowHeadLeft).toBeLessThanOrEqual(1);
    await screenshot(page, 'quality-many-classes-scrolled');
  }, 120_000);
});
