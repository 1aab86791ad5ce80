/**
 * The lead's Team report panel with a real PostgreSQL hub: an annotator (a separate `labeldesk`
 * process and home) relabels a box of a honeypot and marks it reviewed; the lead reaches the
 * panel's button with the keyboard alone, and the panel shows the annotator's files reviewed,
 * boxes changed and honeypot scores as `team report --json` gives them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import {
  modelBox,
  projectWith,
  review,
  teamJson,
  useTeamFixture,
  type Member,
} from '../support/team-members.js';
import { openApp, screenshot, startBrowserApp } from './browser-app.js';

let lead: Member;
let ann: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }], (fx) => {
  [lead, ann] = fx.members as [Member, Member];
});

interface Report {
  members: {
    member: string;
    filesReviewed: number;
    boxesChanged: number;
    honeypots: { fp: number; fn: number; precision: number | null; recall: number | null };
  }[];
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

describe('the Team report panel', () => {
  it('is reached by keyboard and shows each member as `team report` does', async () => {
    await projectWith(lead, ann);
    // photo0 is a honeypot as the model has it (the lead's version: no change); ann relabels one
    // of its boxes: one false positive and one miss against the truth.
    await teamJson(lead, ['honeypots', 'add', join(lead.folder, 'photo0.jpg')]);
    review(ann, (r, id) =>
      r.edit(id('photo0.jpg'), 'objects', {
        kind: 'relabel',
        box: modelBox(ann, 'photo0.jpg', 0),
        label: 'zebra',
      }),
    );
    const store = openLibraryStore(join(ann.home, 'library.sqlite'));
    try {
      store.reviewed.markReviewed(
        [store.media.byPath(join(ann.folder, 'photo0.jpg'))!.id],
        'objects',
        'person',
      );
    } finally {
      store.close();
    }
    await teamJson(ann, ['sync']);
    const report = await teamJson<Report>(lead, ['report']);
    const anns = report.members.find((m) => m.member === 'ann')!;
    expect(anns).toMatchObject({ filesReviewed: 1, boxesChanged: 1, honeypots: { fp: 1, fn: 1 } });

    const app = await startBrowserApp(lead.env);
    try {
      const { page } = app;
      await openApp(app);
      await page.getByRole('navigation').getByRole('button', { name: 'Team' }).click();
      const panel = page.getByRole('region', { name: 'Team report' });
      await panel.waitFor({ timeout: 30_000 });
      // From the Members form's role field, Tab alone reaches the report's button (past the
      // role's kind; Add and Remove are disabled while the field is empty).
      await page
        .getByRole('form', { name: 'Members' })
        .getByRole('textbox', { name: 'PostgreSQL role' })
        .focus();
      const show = panel.getByRole('button', { name: 'Show report' });
      let reached = false;
      for (let i = 0; i < 3 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await show.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      const row = panel
        .getByRole('table', { name: 'Members' })
        .getByRole('row')
        .filter({ hasText: 'ann (annotator)' });
      await row.waitFor({ timeout: 30_000 });
      const cells = await row.getByRole('cell').allTextContents();
      // Files reviewed, boxes changed, …, honeypot precision and recall (columns 1, 2, 6, 7).
      expect([cells[0], cells[1], cells[5], cells[6]]).toEqual([
        '1',
        '1',
        pct(anns.honeypots.precision),
        pct(anns.honeypots.recall),
      ]);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, 'team-report');
    } finally {
      await app.close();
    }
  });
});
