/**
 * Auto-accept end to end, on real models through browser mode: a person marks three photos
 * reviewed (M), sets a target precision on Quality, presses Auto-accept, reads the count in the
 * confirmation, accepts; the other photo's confident boxes then show as accepted by rule in its
 * review, and Undo auto-accept puts them back to review. Screenshots go to test-results/.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser-app.js';
import { labelledApp, openItem } from './label-folder.js';
import { options } from './review-steps.js';

const PHOTO = 'fruits.jpg';
// The same scene at other sizes: other bytes, similar boxes. Three are reviewed (enough
// evidence for a threshold at 50 %), the last one is not: auto-accept works on it.
const REVIEWED = ['fruits-a.jpg', 'fruits-b.jpg', 'fruits-c.jpg'];
const OTHER = 'fruits-d.jpg';
const SCALES = [1, 0.95, 0.85, 0.9];

const labelled = labelledApp({
  sub: 'fruit',
  prepare: async (folder, media) => {
    const { width = 0 } = await sharp(join(media, PHOTO)).metadata();
    for (const [i, name] of [...REVIEWED, OTHER].entries()) {
      await sharp(join(media, PHOTO))
        .resize({ width: Math.round(width * (SCALES[i] ?? 1)) })
        .jpeg({ quality: 92 })
        .toFile(join(folder, name));
    }
  },
});

describe('auto-accept', () => {
  it('accepts by rule what clears the threshold, shows it apart, and undoes it', async () => {
    const page = labelled.page();
    for (const name of REVIEWED) {
      await openItem(page, name);
      await page.getByRole('listbox', { name: 'Boxes' }).getByRole('option').first().waitFor();
      const mark = page.getByRole('button', { name: 'Mark reviewed' });
      await page.getByRole('img', { name, exact: true }).focus();
      await page.keyboard.press('m');
      await expect.poll(() => mark.getAttribute('aria-pressed')).toBe('true');
      await page.keyboard.press('Escape');
    }

    await page.getByRole('navigation').getByRole('button', { name: 'Quality' }).click();
    await page.getByText(/^3 reviewed files · objects/).waitFor({ timeout: 30_000 });
    await page.getByRole('spinbutton', { name: 'Target precision' }).fill('50');
    await page.getByRole('heading', { name: 'Score thresholds for 50.0 % precision' }).waitFor();

    await page.getByRole('button', { name: 'Auto-accept' }).click();
    const dialog = page.getByRole('dialog', { name: 'Auto-accept' });
    await dialog.waitFor({ timeout: 30_000 });
    await screenshot(page, 'auto-accept-confirm');
    const question = dialog.getByRole('heading', { name: /^Accept \d+ box(es)? on 1 file\?$/ });
    await question.waitFor({ timeout: 30_000 });
    const accepted = Number(/Accept (\d+)/.exec(await question.innerText())?.[1]);
    expect(accepted).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: /^Accept \d+ box/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Accepted ${accepted} box` })
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'auto-accept-done');

    await page.getByRole('navigation').getByRole('button', { name: 'Library' }).click();
    const tile = page
      .getByRole('grid', { name: 'Library' })
      .getByRole('gridcell', { name: new RegExp(`^${OTHER.replace('.', '\\.')}`) });
    await expect
      .poll(() => tile.getAttribute('aria-label'))
      .toMatch(new RegExp(`, ${accepted} accepted by rule`));
    await screenshot(page, 'auto-accept-library');
    await openItem(page, OTHER);
    // A conflict's one row stands for its boxes and counts them ("2 by rule").
    const byRule = async () =>
      (await options(page))
        .map((o) => o.text.replace(/[01]\.\d\d/, ' ')) // the score, then the state
        .map((t) => /(\d+) by rule/.exec(t)?.[1] ?? (t.includes('by rule') ? 1 : 0))
        .reduce((n: number, k) => n + Number(k), 0);
    await expect.poll(byRule, { timeout: 15_000 }).toBe(accepted);
    await screenshot(page, 'auto-accept-review');
    await page.keyboard.press('Escape');

    await page.getByRole('navigation').getByRole('button', { name: 'Quality' }).click();
    await page.getByRole('button', { name: 'Undo auto-accept' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Undid the auto-accept: ${accepted} box` })
      .waitFor();
    await page.getByRole('navigation').getByRole('button', { name: 'Library' }).click();
    await openItem(page, OTHER);
    await page.getByRole('listbox', { name: 'Boxes' }).getByRole('option').first().waitFor();
    await expect.poll(byRule).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => tile.getAttribute('aria-label')).not.toMatch(/by rule/);
    expect((await options(page)).every((o) => !/accepted/.test(o.text))).toBe(true);
  }, 240_000);
});
