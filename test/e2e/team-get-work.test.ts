/**
 * "Get work" with a real PostgreSQL hub (issue 26 §2): a member (bob) opens the Team screen and
 * gets work; the hub hands him the file nobody else holds (cid, another member's process, holds
 * the other), the review opens on it, and Review next (Enter) marks it reviewed and stays within
 * his claim: the hub records his review, and nobody is handed that file again.
 */
import { describe, expect, it } from 'vitest';
import type { PgServer } from '../support/pg-server.js';
import {
  linkProject,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../support/team-members.js';
import { openApp, screenshot, startBrowserApp } from './browser-app.js';

let server: PgServer;
let lead: Member;
let bob: Member;
let cid: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }, { name: 'cid' }], (fx) => {
  server = fx.server;
  [lead, bob, cid] = fx.members as [Member, Member, Member];
});

describe('Get work', () => {
  it("opens the review on one's own claim and walks it with Review next", async () => {
    await linkProject(lead, 'create');
    for (const m of [bob, cid]) {
      expect((await team(lead, ['member', 'add', m.name])).code).toBe(0);
      await linkProject(m, 'join');
    }
    const held = await teamJson<{ claimed: { relPath: string }[] }>(cid, ['claim', '1']);
    expect(held.claimed).toHaveLength(1);
    const cids = held.claimed[0]!.relPath;
    const mine = ['photo0.jpg', 'photo1.jpg'].find((f) => f !== cids)!;

    const app = await startBrowserApp(bob.env);
    try {
      const { page } = app;
      await openApp(app);
      await page.getByRole('navigation').getByRole('button', { name: 'Team' }).click();
      const work = page.getByRole('region', { name: 'Work' });
      await work.getByRole('button', { name: 'Get work' }).focus();
      await page.keyboard.press('Enter');
      const title = page.getByRole('heading', { level: 1 });
      await expect.poll(() => title.textContent(), { timeout: 30_000 }).toBe(mine);
      await screenshot(page, 'team-get-work');
      await page.getByRole('listbox', { name: 'Boxes' }).focus();
      await page.keyboard.press('Enter');
      // His claim is reviewed: Review next does not open the file cid holds.
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: /Every file is reviewed/ })
            .count(),
        )
        .toBeGreaterThan(0);
      expect(await title.textContent()).not.toBe(cids);
      // The app's sync takes his mark to the hub: the file is his review, out of the pool.
      await expect
        .poll(
          () =>
            server.sql(
              `SELECT holder || ' ' || done FROM labeldesk_demo.work WHERE content_hash =
                 (SELECT content_hash FROM labeldesk_demo.files WHERE rel_path = '${mine}')`,
            ),
          { timeout: 30_000 },
        )
        .toBe('bob true');
    } finally {
      await app.close();
    }
    expect((await teamJson<{ claimed: unknown[] }>(lead, ['claim', '5'])).claimed).toEqual([]);
  });
});
