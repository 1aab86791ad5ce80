/**
 * A box two members changed without seeing each other's change, in the review, with a real
 * PostgreSQL hub: the lead's app shows it apart on the canvas and in Boxes (both versions, the
 * other member named), the help lists its keys, `Shift+V` chooses bob's version and `V` keeps it;
 * the choice is one change in the team's log, so bob's desktop (a separate `labeldesk` process)
 * agrees and no conflict is left on either.
 */
import { describe, expect, it } from 'vitest';
import {
  projectWith,
  relabelSecondBox,
  shown,
  teamJson,
  useLeadAndBob,
} from '../support/team-members.js';
import { openApp, screenshot, startBrowserApp } from './browser-app.js';

const members = useLeadAndBob();

describe('a team conflict in the review', () => {
  it('shows both versions and keeps one with one key', async () => {
    const { lead, bob } = members;
    await projectWith(lead, bob);
    // Neither has seen the other's change: the same box, two versions.
    relabelSecondBox(lead, 'cat');
    relabelSecondBox(bob, 'dog');
    await teamJson(bob, ['sync']);
    const app = await startBrowserApp(lead.env);
    try {
      const { page } = app;
      await openApp(app);
      const badge = page.getByRole('button', { name: /^Team project / });
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('1 conflict');

      await page.keyboard.press('Control+1');
      const grid = page.getByRole('grid', { name: 'Library' });
      await grid.getByRole('gridcell', { name: /^photo0\.jpg/ }).dblclick();
      await page.getByRole('img', { name: 'photo0.jpg' }).waitFor();
      const boxes = page.getByRole('listbox', { name: 'Boxes' });
      const inConflict = boxes.getByRole('option', { name: /· team conflict with bob$/ });
      await inConflict.waitFor({ timeout: 30_000 });
      expect(await boxes.getByRole('option', { name: /team conflict/ }).count()).toBe(1);

      const panel = page.getByRole('region', { name: 'Team conflict' });
      await panel.getByText('bob changed this box too.', { exact: false }).waitFor();
      const versions = panel.getByRole('listitem');
      expect(await versions.count()).toBe(2);
      await versions.filter({ hasText: /^lead \(you\): cat/ }).waitFor();
      await versions.filter({ hasText: /^bob: dog/ }).waitFor();
      await screenshot(page, 'team-review-conflict');

      // The review's help lists the keys, beside C and Shift+C for a class conflict.
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Review shortcuts' });
      const key = (what: string) =>
        help.getByRole('row').filter({ hasText: what }).locator('th').textContent();
      expect(await key('Team conflict: keep the chosen version')).toBe('V');
      expect(await key('Team conflict: choose its next version')).toBe('Shift+V');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });

      // The person selects the box, chooses bob's version and keeps it with V.
      await inConflict.click();
      const chosen = panel.locator('li[aria-current="true"]');
      if (!((await chosen.textContent()) ?? '').startsWith('bob:')) {
        await page.keyboard.press('Shift+V');
      }
      await expect.poll(() => chosen.textContent()).toMatch(/^bob: dog/);
      await page.keyboard.press('v');
      await panel.waitFor({ state: 'detached', timeout: 30_000 });
      await boxes.getByRole('option', { name: /^dog\b/ }).waitFor();
      expect(await boxes.getByRole('option', { name: /team conflict/ }).count()).toBe(0);
      await screenshot(page, 'team-review-conflict-kept');
      // The app's engine pushes the settling change at once.
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Team · synced');
    } finally {
      await app.close();
    }
    expect(await teamJson(bob, ['sync'])).toMatchObject({ conflicts: 0 });
    expect(shown(bob, 'photo0.jpg').some((b) => b.startsWith('dog '))).toBe(true);
    expect(shown(bob, 'photo0.jpg').some((b) => b.startsWith('cat '))).toBe(false);
    expect(shown(lead, 'photo0.jpg')).toEqual(shown(bob, 'photo0.jpg'));
    expect(await teamJson(lead, ['conflicts'])).toMatchObject({ conflicts: [] });
  });
});
