/** Shared steps of the image and video review end-to-end tests: read the Boxes list, drag. */
import type { Page } from 'playwright-core';

export interface Opt {
  /** The option's element id (it names the box, stable across edits of a model box). */
  id: string;
  /** The option's accessible name ("label score"). */
  name: string;
  /** What the row shows besides (review state, origin, `#track`). */
  text: string;
  bbox: { x: number; y: number; w: number; h: number };
}

/** The Boxes list as a person reads it, with where each box is (normalised). */
export async function options(page: Page): Promise<Opt[]> {
  return page
    .getByRole('listbox', { name: 'Boxes' })
    .getByRole('option')
    .evaluateAll((els) =>
      els.map((e) => {
        const [x = 0, y = 0, w = 0, h = 0] = (e.getAttribute('data-bbox') ?? '')
          .split(',')
          .map(Number);
        const name = e.getAttribute('aria-label') ?? '';
        return { id: e.id, name, text: e.textContent ?? '', bbox: { x, y, w, h } };
      }),
    );
}

export async function stageBox(page: Page, name: string) {
  // The picture's place is set once it has loaded and been fitted: wait until it stays put.
  const img = page.getByRole('img', { name, exact: true });
  let last = '';
  for (let tries = 0; tries < 100; tries++) {
    const box = await img.boundingBox();
    const key = box ? JSON.stringify(box) : '';
    if (box && box.width > 10 && box.height > 10 && key === last) return box;
    last = key;
    await page.waitForTimeout(50);
  }
  throw new Error(`the stage named ${name} never settled (last at ${last || 'nowhere'})`);
}

/** The screen point of a normalised picture point on a fitted stage. */
export function at(
  stage: { x: number; y: number; width: number; height: number },
  x: number,
  y: number,
) {
  return { x: stage.x + x * stage.width, y: stage.y + y * stage.height };
}

export async function drag(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}
