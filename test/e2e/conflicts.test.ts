/**
 * Conflicts end to end, on real models through browser mode: on fruits.jpg CenterNet calls one
 * fruit both "apple" and "orange". The library's Conflicts filter finds the file, the review names
 * the conflict once on its boxes, and C on the chosen box keeps its class (the others are
 * rejected, so the conflict is gone). Screenshots go to test-results/.
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
    const inFirst = async () => (await options(page)).filter((o) => o.text.includes('conflict 1:'));
    await expect.poll(async () => (await inFirst()).length).toBeGreaterThanOrEqual(2);
    const group = await inFirst();
    const kept = group[0]!;
    const labels = /conflict 1: (.*)$/.exec(kept.text)?.[1] ?? '';
    expect(labels).toMatch(/ \/ /);
    await page.locator(`[id="${kept.id}"]`).click();
    await screenshot(page, 'conflicts-review');
    await page.keyboard.press('c');
    // The others on that object are rejected; the kept box stays as it was, and that conflict ends.
    await expect
      .poll(async () => {
        const now = await options(page);
        return group
          .slice(1)
          .every((g) => now.find((o) => o.id === g.id)?.text.includes('rejected'));
      })
      .toBe(true);
    const after = (await options(page)).find((o) => o.id === kept.id);
    expect(after?.text).not.toMatch(/rejected/);
    expect((await options(page)).some((o) => o.text.includes(`conflict 1: ${labels}`))).toBe(false);
    await screenshot(page, 'conflicts-kept');
  }, 240_000);
});
