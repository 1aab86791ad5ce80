/**
 * Review what matters first (issue 13 §4), end to end on real models through browser mode, as a
 * person: the library sorted by "Review priority", the first file opened, Enter through every file
 * (each marked reviewed as it is left), fruits.jpg's conflict shown as ONE row ("apple / orange ·
 * conflict") whose class is chosen with Shift+C and kept with C, and at the end the review says so.
 * Screenshots go to test-results/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser-app.js';
import { labelledApp } from './label-folder.js';
import { options } from './review-steps.js';

const PHOTOS = ['fruits.jpg', 'messi5.jpg', 'baboon.jpg', 'orange.jpg'];
const labelled = labelledApp({ photos: PHOTOS, sub: 'batch' });

const CONFLICT = / · conflict$/;

/** Keeps one class of the open file's first conflict, chosen with Shift+C. */
async function resolveConflict(page: Page): Promise<void> {
  await expect
    .poll(async () => (await options(page)).some((o) => CONFLICT.test(o.name)))
    .toBe(true);
  const before = await options(page);
  const row = before.find((o) => CONFLICT.test(o.name))!;
  const classes = row.name.replace(CONFLICT, '').split(' / ');
  expect(classes.length).toBeGreaterThanOrEqual(2);
  // The merged row names every class once; the same object is not listed again per class.
  expect(before.filter((o) => o.bbox.x === row.bbox.x && o.bbox.y === row.bbox.y)).toHaveLength(1);
  // A click selects the row (on a selected row, a click on a class would choose that class).
  await page.locator(`[id="${row.id}"] .box-score`).click();
  const chosen = page.locator('[role="option"][aria-selected="true"] .conflict-chosen');
  await expect.poll(() => chosen.textContent()).toBe(classes[0]);
  await screenshot(page, 'review-next-conflict-row');
  // Shift+C chooses the next class of the conflict; C keeps it and rejects the others there.
  await page.keyboard.press('Shift+C');
  await expect.poll(() => chosen.textContent()).toBe(classes[1]);
  await page.keyboard.press('c');
  await expect
    .poll(async () => (await options(page)).filter((o) => CONFLICT.test(o.name)).length)
    .toBe(before.filter((o) => CONFLICT.test(o.name)).length - 1);
  const after = await options(page);
  const kept = after.find((o) => o.name.startsWith(`${classes[1]} `) && o.bbox.x === row.bbox.x);
  expect(kept?.text).not.toMatch(/rejected/);
  const rejected = after.filter(
    (o) => o.text.includes('rejected') && o.name.startsWith(classes[0]!),
  );
  expect(rejected.length).toBeGreaterThanOrEqual(1);
  await screenshot(page, 'review-next-conflict-kept');
}

describe('review next', () => {
  it('sorts by review priority, goes through every file with Enter, resolves a conflict', async () => {
    const page = labelled.page();
    const grid = page.getByRole('grid', { name: 'Library' });
    await grid.getByRole('gridcell').first().waitFor();
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Review priority' });
    const names = async () =>
      (await grid.getByRole('gridcell').allTextContents()).map((t) =>
        PHOTOS.find((p) => t.includes(p)),
      );
    await expect.poll(async () => (await names()).length).toBe(PHOTOS.length);
    const order = await names();
    await screenshot(page, 'review-next-library-priority');
    // The conflicted file comes before a file with no sign of a mistake (no box, as its folder).
    expect(order.indexOf('fruits.jpg')).toBeLessThan(order.indexOf('orange.jpg'));

    await grid.getByRole('gridcell').first().dblclick();
    const title = page.getByRole('heading', { level: 1 });
    const visited: string[] = [];
    const asked: string[] = [];
    for (let i = 0; i < PHOTOS.length; i++) {
      await expect.poll(async () => PHOTOS.includes((await title.textContent()) ?? '')).toBe(true);
      const name = (await title.textContent()) as string;
      expect(visited).not.toContain(name);
      visited.push(name);
      if (name === 'fruits.jpg') await resolveConflict(page);
      else await page.getByRole('listbox', { name: 'Boxes' }).focus();
      await page.keyboard.press('Enter');
      // A file that shows no box would be marked "no objects": asked the first time only.
      const question = page.getByRole('dialog', { name: 'Mark as no objects' });
      const done = page.getByRole('status').filter({ hasText: /Every file is reviewed/ });
      await expect
        .poll(
          async () =>
            (await question.isVisible()) ||
            (await title.textContent()) !== name ||
            (await done.count()) > 0,
        )
        .toBe(true);
      if (await question.isVisible()) {
        asked.push(name);
        expect((await options(page)).every((o) => o.text.includes('rejected'))).toBe(true);
        await screenshot(page, 'review-next-no-objects');
        await question.getByRole('button', { name: 'Mark reviewed and go on' }).click();
      }
      if (i < PHOTOS.length - 1) await expect.poll(() => title.textContent()).not.toBe(name);
    }
    // A photo that shows no box was asked about, once at most in the session.
    expect(asked.length).toBeLessThanOrEqual(1);
    expect(visited[0]).toBe(order[0]);
    expect([...visited].sort()).toEqual([...PHOTOS].sort());
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /reviewed/ })
          .first()
          .textContent(),
      )
      .toMatch(/Every file is reviewed/);
    await expect
      .poll(() => page.getByRole('button', { name: 'Mark reviewed' }).getAttribute('aria-pressed'))
      .toBe('true');
    await screenshot(page, 'review-next-done');

    // Back in the library: every file is marked reviewed.
    await page.getByRole('button', { name: 'Back to library' }).click();
    await page.getByRole('combobox', { name: 'Review' }).selectOption({ label: 'Reviewed' });
    await expect
      .poll(async () => (await grid.getByRole('gridcell').all()).length)
      .toBe(PHOTOS.length);
  }, 240_000);
});
