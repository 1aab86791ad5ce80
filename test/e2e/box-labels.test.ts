/**
 * Box labels in image review, as a person draws them: two boxes that share their top-left corner
 * get two readable labels, the second moved inside its box instead of over the first (the layout
 * itself is unit-tested in test/unit/renderer/label-layout.test.ts). The screenshot is the check
 * a person makes: test-results/box-labels-shared-corner.png.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser-app.js';
import { labelledApp, openItem } from './label-folder.js';
import { at, drag, options, stageBox } from './review-steps.js';

const labelled = labelledApp(
  { photos: ['messi5.jpg'], sub: 'photos', env: { LABELDESK_EMBEDDED_ENGINE: 'null' } },
  120_000,
);

describe('labels of boxes sharing a corner', () => {
  it('are both readable: the second label moves inside its box', async () => {
    const page = labelled.page();
    await page.keyboard.press('Control+1');
    await openItem(page, 'messi5.jpg');
    const stage = await stageBox(page, 'messi5.jpg');
    // Only the person's boxes: the stand-in engine's are hidden by the threshold.
    await page.getByRole('slider', { name: 'Score threshold' }).fill('1');
    const label = page.getByRole('combobox', { name: 'Label' });
    for (const [name, corner] of [
      ['goalpost', { x: 0.85, y: 0.7 }],
      ['referee', { x: 0.7, y: 0.5 }],
    ] as const) {
      await page.getByRole('button', { name: 'Draw box' }).click();
      await drag(page, at(stage, 0.45, 0.3), at(stage, corner.x, corner.y));
      await label.fill(name);
      await page.keyboard.press('Enter');
    }
    await expect
      .poll(async () => (await options(page)).map((o) => o.name.split(' ')[0]).sort())
      .toEqual(['goalpost', 'referee']);
    const [a, b] = (await options(page)).map((o) => o.bbox);
    expect(a!.x).toBeCloseTo(b!.x, 2);
    expect(a!.y).toBeCloseTo(b!.y, 2);
    // A click where there is no box selects none: both labels in their class colours.
    const empty = at(stage, 0.1, 0.9);
    await page.mouse.click(empty.x, empty.y);
    await screenshot(page, 'box-labels-shared-corner');
  }, 120_000);
});
