/** Shared steps of the review and export end-to-end tests: label everything, open an item. */
import type { Page } from 'playwright-core';
import { addFolderByPath, openApp, type BrowserApp } from './browser-app.js';

/** Opens the app, adds `folder`, runs the embedded models over it to Done, and goes to the Library. */
export async function labelFolder(app: BrowserApp, folder: string): Promise<void> {
  const { page } = app;
  await openApp(app, /Embedded service · online/);
  await addFolderByPath(page, folder);
  await page.keyboard.press('Control+3');
  await page.getByText(/About \d+ frames/).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('status').filter({ hasText: /^Done/ }).waitFor({ timeout: 300_000 });
  await page.keyboard.press('Control+1');
}

/** Opens a library item by its file name (double click on its tile). */
export async function openItem(page: Page, name: string): Promise<void> {
  const grid = page.getByRole('grid', { name: 'Library' });
  await grid
    .getByRole('gridcell', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) })
    .dblclick();
}
