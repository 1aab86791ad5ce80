/**
 * Conflicts end to end, on real models through browser mode: on fruits.jpg CenterNet calls one
 * fruit both "apple" and "orange". The library's Conflicts filter finds the file, the review shows
 * the conflict as one row ("apple / orange · conflict"), and C on it keeps the chosen class (the
 * others are rejected, so the conflict is gone). Screenshots go to test-results/.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser-app.js';
import { labelledApp, openItem } from './label-folder.js';
import { options } from './review-steps.js';

const PHOTO = 'fruits.jpg';

const labelled = labelledApp({ photos: [PHOTO, 'messi5.jpg'], sub: 'fruit' });

describe('conflicts', () => {
  it('the filter finds the file, the review names the conflict, C keeps one class', async () => {
    const page = labelled.page();
    const grid = page.getByRole('grid', { name: 'Library' });
    await grid.getByRole('gridcell').first().waitFor();
    const toggle = page.getByRole('button', { name: 'Conflicts' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await grid.getByRole('gridcell', { name: /^fruits\.jpg/ }).waitFor();
    await screenshot(page, 'conflicts-filter');

    await openItem(page, PHOTO);
    // Each conflict is ONE row named with its classes; C on it keeps its chosen (best) class.
    const CONFLICT = / · conflict$/;
    const conflictRows = async () => (await options(page)).filter((o) => CONFLICT.test(o.name));
    await expect.poll(async () => (await conflictRows()).length).toBeGreaterThanOrEqual(1);
    const rows = await conflictRows();
    const row = rows[0]!;
    const [kept, ...others] = row.name.replace(CONFLICT, '').split(' / ');
    expect(others.length).toBeGreaterThanOrEqual(1);
    await page.locator(`[id="${row.id}"] .box-score`).click();
    await screenshot(page, 'conflicts-review');
    await page.keyboard.press('c');
    // The other boxes on that object come back as rows of their own, rejected; that conflict ends.
    await expect.poll(async () => (await conflictRows()).length).toBe(rows.length - 1);
    const now = await options(page);
    const keptRow = now.find((o) => o.id === row.id);
    expect(keptRow?.name.startsWith(`${kept} `)).toBe(true);
    expect(keptRow?.text).not.toMatch(/rejected/);
    for (const label of others) {
      expect(now.some((o) => o.name.startsWith(`${label} `) && o.text.includes('rejected'))).toBe(
        true,
      );
    }
    await screenshot(page, 'conflicts-kept');
  }, 240_000);
});
