/**
 * The Runs screen in a team project with a real PostgreSQL hub: a teammate (the lead) already
 * answered two of carol's three photos and offered the answers to the hub; carol's estimate,
 * asked of the hub, names those two as taken from it with no frames spent, and counts only the
 * third as to send and pay.
 */
import { describe, expect, it } from 'vitest';
import { distinctJpegs } from '../support/cli-media.js';
import {
  linkProject,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../support/team-members.js';
import { openApp, screenshot, startBrowserApp } from './browser-app.js';

let lead: Member;
let carol: Member;

useTeamFixture(
  [
    { name: 'lead', createSchema: true },
    { name: 'carol', label: false },
  ],
  (fx) => {
    [lead, carol] = fx.members as [Member, Member];
  },
);

describe('the Runs screen in a team project', () => {
  it('says the files a teammate answered are taken from the hub, no frames spent', async () => {
    await linkProject(lead, 'create');
    expect((await team(lead, ['member', 'add', 'carol'])).code).toBe(0);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ answersOffered: 2 });
    // Carol's folder has one photo nobody answered, beside the two the lead paid for.
    await distinctJpegs(carol.folder, 1, 'extra', 2);
    await linkProject(carol, 'join');

    const app = await startBrowserApp(carol.env);
    try {
      const { page } = app;
      await openApp(app);
      await page.keyboard.press('Control+3');
      const note = page.getByText(
        '2 files the team already answered: taken from the hub, no frames spent.',
      );
      await note.waitFor({ timeout: 60_000 });
      await page.getByText(/About \d+ frames?: 1 image\b/).waitFor();
      expect(await page.getByText(/team hub could not be asked/).count()).toBe(0);
      await screenshot(page, 'team-runs-estimate');
    } finally {
      await app.close();
    }
  });
});
