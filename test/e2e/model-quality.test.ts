/**
 * Model quality end to end, on real models through browser mode: a person reviews a photo (rejects
 * one of the model's boxes, draws one it missed), presses M, opens Quality and reads the table —
 * the same figures as `labeldesk evaluate --json` — then clicks a mistake and lands in the review
 * on that very box; the target precision the person set is still there after the library and a
 * reload. Screenshots go to test-results/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliEnv, cliJson } from '../support/cli-run.js';
import { NO_KEYCHAIN, screenshot } from './browser-app.js';
import { labelledApp, openItem } from './label-folder.js';
import { at, drag, options, stageBox } from './review-steps.js';

const PHOTO = 'fruits.jpg';

const labelled = labelledApp({ photos: [PHOTO, 'messi5.jpg'], sub: 'fruit' });

interface EvalJson {
  reviewedFiles: number;
  classes: { label: string; precision: number; recall: number; ap50: number; ap: number }[];
}

const pct = (v: number) => (v < 0 ? '—' : `${(v * 100).toFixed(1)} %`);

/** The "Model quality" table as a person reads it: one record per row, by column name. */
async function qualityRows(page: Page): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name: 'Model quality' });
  await table.waitFor();
  const heads = await table.locator('thead').getByRole('columnheader').allInnerTexts();
  const rows = table.locator('tbody').getByRole('row');
  const out: Record<string, string>[] = [];
  for (const row of await rows.all()) {
    const cells = await row.getByRole('rowheader').or(row.getByRole('cell')).allInnerTexts();
    out.push(Object.fromEntries(heads.map((h, i) => [h, cells[i] ?? ''])));
  }
  return out;
}

describe('model quality', () => {
  let rejected = '';

  it('a person reviews a photo and marks it reviewed with M', async () => {
    const page = labelled.page();
    await openItem(page, PHOTO);
    const list = page.getByRole('listbox', { name: 'Boxes' });
    await list.getByRole('option').first().waitFor();
    const before = await options(page);
    // A conflict's row ("orange / apple · conflict") selects its first class's box.
    rejected = before[0]!.name.replace(/ · conflict$/, '').split(' / ')[0]!;
    rejected = rejected.replace(/ [01]\.\d\d$/, '');
    await list.getByRole('option').first().locator('.box-score').click();
    await page.keyboard.press('r');
    // A kiwi the model did not see, drawn in the top-left corner.
    const stage = await stageBox(page, PHOTO);
    await page.getByRole('button', { name: 'Draw box' }).click();
    await drag(page, at(stage, 0.02, 0.02), at(stage, 0.12, 0.14));
    const label = page.getByRole('combobox', { name: 'Label' });
    await label.fill('kiwi');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await options(page)).some((o) => o.name.startsWith('kiwi')))
      .toBe(true);

    const mark = page.getByRole('button', { name: 'Mark reviewed' });
    expect(await mark.getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('img', { name: PHOTO, exact: true }).focus();
    await page.keyboard.press('m');
    await expect.poll(() => mark.getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'quality-marked-reviewed');
    await page.keyboard.press('Escape');
    const tile = page
      .getByRole('grid', { name: 'Library' })
      .getByRole('gridcell', { name: /^fruits\.jpg/ });
    await expect.poll(() => tile.getAttribute('aria-label')).toMatch(/, reviewed/);
  }, 120_000);

  it('Quality shows the same figures as `labeldesk evaluate`', async () => {
    const page = labelled.page();
    await page.getByRole('navigation').getByRole('button', { name: 'Quality' }).click();
    await page.getByText(/^1 reviewed file · objects/).waitFor({ timeout: 30_000 });
    const rows = await qualityRows(page);
    const heads = Object.keys(rows[0] ?? {});
    expect(heads.slice(0, 5)).toEqual(['Class', 'Precision', 'Recall', 'AP50', 'AP']);

    const cli = await cliJson<EvalJson>(['evaluate'], cliEnv(labelled.home(), NO_KEYCHAIN));
    expect(cli.reviewedFiles).toBe(1);
    expect(rows.map((r) => r['Class'])).toEqual(cli.classes.map((c) => c.label));
    for (const c of cli.classes) {
      const row = rows.find((r) => r['Class'] === c.label)!;
      expect([row['Precision'], row['Recall'], row['AP50'], row['AP']], c.label).toEqual(
        [c.precision, c.recall, c.ap50, c.ap].map(pct),
      );
    }
    // The drawn kiwi: no model box found it. The rejected box: a false positive of its class.
    expect(rows.find((r) => r['Class'] === 'kiwi')).toMatchObject({
      Recall: '0.0 %',
      AP50: '0.0 %',
      Misses: '1',
    });
    expect(
      Number(rows.find((r) => r['Class'] === rejected)!['False positives']),
    ).toBeGreaterThanOrEqual(1);
    // One reviewed photo backs no threshold: every class says so, and a new target is asked for.
    const thresholds = page.getByRole('table', { name: 'Score thresholds' });
    const apple = thresholds.getByRole('row', { name: /^apple / });
    await expect.poll(() => apple.innerText()).toMatch(/Too little evidence|Cannot reach 95.0 %/);
    const target = page.getByRole('spinbutton', { name: 'Target precision' });
    expect(await target.inputValue()).toBe('95');
    await target.fill('90');
    await page.getByRole('heading', { name: 'Score thresholds for 90.0 % precision' }).waitFor();
    await page
      .getByRole('img', { name: /^Precision–recall curve of / })
      .first()
      .waitFor();
    await page.getByRole('table', { name: 'Confusions' }).waitFor();
    await screenshot(page, 'quality-screen');
  }, 120_000);

  it('a mistake opens the review on its box', async () => {
    const page = labelled.page();
    const misses = page.getByRole('list', { name: 'Misses' });
    await misses.getByRole('button', { name: `Missed kiwi in ${PHOTO}` }).click();
    await page.getByRole('img', { name: PHOTO, exact: true }).waitFor();
    const chosen = page
      .getByRole('listbox', { name: 'Boxes' })
      .getByRole('option', { selected: true });
    await expect.poll(() => chosen.getAttribute('aria-label')).toMatch(/^kiwi\b/);
    await screenshot(page, 'quality-mistake-opened');

    await page.keyboard.press('Control+5');
    const fps = page.getByRole('list', { name: 'False positives' });
    const first = fps.getByRole('button').first();
    const text = await first.innerText();
    expect(text).toMatch(/ on nothing, in /);
    await first.click();
    await expect
      .poll(() => chosen.getAttribute('aria-label'))
      .toBe(text.replace(/ on nothing, in .*$/, ''));
  }, 120_000);

  it('the target a person set is kept: library and back, and after a reload', async () => {
    const page = labelled.page();
    const nav = page.getByRole('navigation');
    const target = page.getByRole('spinbutton', { name: 'Target precision' });
    await nav.getByRole('button', { name: 'Library' }).click();
    // The review of the last mistake is still open there: back to the grid.
    await page.getByRole('img', { name: PHOTO, exact: true }).focus();
    await page.keyboard.press('Escape');
    await page.getByRole('grid', { name: 'Library' }).waitFor();
    await nav.getByRole('button', { name: 'Quality' }).click();
    await expect.poll(() => target.inputValue()).toBe('90');
    await page.getByRole('heading', { name: 'Score thresholds for 90.0 % precision' }).waitFor();

    // Stored in the library, not in the page: a fresh page shows it too.
    await page.reload();
    await nav.getByRole('button', { name: 'Quality' }).click();
    await expect.poll(() => target.inputValue(), { timeout: 30_000 }).toBe('90');
    await page.getByRole('heading', { name: 'Score thresholds for 90.0 % precision' }).waitFor();
    await screenshot(page, 'quality-target-kept');

    // Typed and left at once, within the debounce: still stored.
    await target.fill('85');
    await nav.getByRole('button', { name: 'Library' }).click();
    await nav.getByRole('button', { name: 'Quality' }).click();
    await expect.poll(() => target.inputValue(), { timeout: 30_000 }).toBe('85');
    await page.getByRole('heading', { name: 'Score thresholds for 85.0 % precision' }).waitFor();
  }, 120_000);
});
