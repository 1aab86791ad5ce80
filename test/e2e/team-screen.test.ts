/**
 * The Team screen and badge with a real PostgreSQL hub: a person creates the project from the
 * screen (a wrong password and an unreachable hub are refused first, in words), adds a member,
 * who joins as a separate `labeldesk` process with its own home and makes a conflicting edit;
 * the badge shows the conflict as it arrives (pushed, not polled), the person keeps the member's
 * version on the screen, both desktops agree, the badge says offline when the hub stops, and
 * the password is in no file of the library.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { filesHolding } from '../support/secrets-in-files.js';
import {
  modelBox,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../support/team-members.js';
import type { PgServer } from '../support/pg-server.js';
import { openApp, screenshot, startBrowserApp } from './browser-app.js';

// As long as a project's name may be: the badge and the screen must still read well.
const PROJECT = 'a_rather_long_project_name_for_the_whole_team';

let server: PgServer;
let lead: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, bob] = fx.members as [Member, Member];
});

const relabel = (m: Member, label: string) =>
  review(m, (r, id) =>
    r.edit(id('photo0.jpg'), 'objects', {
      kind: 'relabel',
      box: modelBox(m, 'photo0.jpg', 1),
      label,
    }),
  );

async function fillLink(page: Page, hub: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Team project' });
  await form.getByRole('textbox', { name: 'Hub address' }).fill(hub);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('textbox', { name: 'Project', exact: true }).fill(PROJECT);
  await form.getByRole('textbox', { name: 'Project folder on this computer' }).fill(lead.folder);
  await form.getByRole('button', { name: 'Create project' }).click();
}

const badge = (page: Page) => page.getByRole('button', { name: /^Team project / });

describe('the Team screen', () => {
  it('creates a project, shows a conflict in the badge, and settles it', async () => {
    // The lead's edit before the project exists: joining publishes it, based on nothing seen.
    relabel(lead, 'cat');
    const app = await startBrowserApp(lead.env);
    try {
      const { page } = app;
      await openApp(app);
      await page.getByRole('navigation').getByRole('button', { name: 'Team' }).click();
      await page.getByRole('form', { name: 'Team project' }).waitFor();
      expect(await badge(page).count()).toBe(0);
      await screenshot(page, 'team-empty');

      await fillLink(page, lead.hub(false), 'not-the-password');
      await page
        .getByRole('alert')
        .filter({ hasText: /bad_login|password/ })
        .waitFor();
      await screenshot(page, 'team-wrong-password');
      // The field was emptied when sent; nothing kept it.
      expect(await page.getByLabel('Password').inputValue()).toBe('');

      const unreachable = lead.hub(false).replace(/:(\d+)\//, ':1/');
      await fillLink(page, unreachable, lead.password);
      await page
        .getByRole('alert')
        .filter({ hasText: 'hub_unreachable' })
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'team-unreachable');

      await fillLink(page, lead.hub(false), lead.password);
      await page.getByRole('region', { name: 'Team status' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => badge(page).textContent(), { timeout: 30_000 }).toBe('Team · synced');

      const members = page.getByRole('form', { name: 'Members' });
      await members.getByRole('textbox', { name: 'PostgreSQL role' }).fill('bob');
      await members.getByRole('button', { name: 'Add member' }).click();
      await members.getByRole('status').filter({ hasText: 'Added bob' }).waitFor();

      // bob, who has seen nothing of the lead's, changes the same box and sends it.
      await teamJson(bob, [
        'join',
        '--hub',
        bob.hub(true),
        '--project',
        PROJECT,
        '--folder',
        bob.folder,
      ]);
      relabel(bob, 'dog');
      expect(await teamJson(bob, ['sync'])).toMatchObject({ pushed: 1, conflicts: 1 });

      // The app hears of it from the hub and the badge says so, with no click.
      await expect.poll(() => badge(page).textContent(), { timeout: 30_000 }).toBe('1 conflict');
      const conflicts = page.getByRole('region', { name: 'Conflicts' });
      await conflicts.getByText('bob', { exact: true }).waitFor();
      await screenshot(page, 'team-conflict');
      const bobs = conflicts.getByRole('listitem').filter({ hasText: /^bob: dog/ });
      await bobs.getByRole('button', { name: 'Keep this' }).click();
      await expect.poll(() => badge(page).textContent(), { timeout: 30_000 }).toBe('Team · synced');
      await conflicts.getByText('No conflicts').waitFor();

      await teamJson(bob, ['sync']);
      expect((await teamJson(bob, ['status'])).conflicts).toBe(0);
      expect(shown(bob, 'photo0.jpg').some((b) => b.startsWith('dog '))).toBe(true);
      expect(shown(bob, 'photo0.jpg').some((b) => b.startsWith('cat '))).toBe(false);

      // The hub goes away: the badge says so (the app's engine finds out; the page asks nobody).
      server.stop();
      try {
        await expect
          .poll(() => badge(page).textContent(), { timeout: 40_000 })
          .toMatch(/^offline · \d+ changes? waiting$/);
        await screenshot(page, 'team-offline');
      } finally {
        server.start();
      }
    } finally {
      await app.close();
    }
    const found = await filesHolding(lead.home, [lead.password]);
    expect(found.read).toBeGreaterThan(0);
    expect(found.holding).toEqual([]);
    expect((await team(lead, ['status', '--json'])).code).toBe(0);
  });
});
