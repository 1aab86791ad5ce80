/** Shared steps of the review and export end-to-end tests: label everything, open an item. */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv, cliHome, cliJson } from '../support/cli-run.js';
import { realMediaDir } from '../support/real-media.js';
import {
  addFolderByPath,
  NO_KEYCHAIN,
  openApp,
  startBrowserApp,
  type BrowserApp,
} from './browser-app.js';

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

/**
 * A fresh test library (LABELDESK_HOME) with copies of the named real photos in `sub`, labelled
 * by `labeldesk label` on the embedded service's real models.
 */
export async function labelledHome(photos: readonly string[], sub: string) {
  const media = await realMediaDir();
  const h = await cliHome();
  const folder = join(h.dir, sub);
  await mkdir(folder);
  for (const name of photos) await copyFile(join(media, name), join(folder, name));
  await cliJson(['label', folder, '-y'], cliEnv(h.home, NO_KEYCHAIN));
  return { home: h.home, folder, remove: h.remove };
}

/**
 * For one test file: a library of these photos labelled by the CLI, opened in the browser app
 * before the tests and closed and removed after them. Returns the app's getter.
 */
export function labelledApp(photos: readonly string[], sub: string): () => BrowserApp {
  let app: BrowserApp | null = null;
  let remove: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const h = await labelledHome(photos, sub);
    remove = h.remove;
    app = await startBrowserApp({ LABELDESK_HOME: h.home, ...NO_KEYCHAIN });
    await openApp(app);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await remove?.();
  });
  return () => {
    if (!app) throw new Error('the app did not start');
    return app;
  };
}

/** Opens a library item by its file name (double click on its tile). */
export async function openItem(page: Page, name: string): Promise<void> {
  const grid = page.getByRole('grid', { name: 'Library' });
  await grid
    .getByRole('gridcell', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) })
    .dblclick();
}
