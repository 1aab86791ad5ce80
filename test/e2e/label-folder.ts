/** Shared steps of the review and export end-to-end tests: label everything, open an item. */
import type { Page } from 'playwright-core';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv, cliHome, cliJson } from '../support/cli-run.js';
import { realMediaDir } from '../support/real-media.js';
import { afterAll, beforeAll } from 'vitest';
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

export interface LibrarySetup {
  /** The folder of the fresh home that is labelled. */
  sub: string;
  /** Real photos copied into it (by name). */
  photos?: readonly string[];
  /** Puts more files into the folder (the real media folder is `media`). */
  prepare?: (folder: string, media: string) => Promise<void>;
  /** More environment for the CLI and the app (the keychain stays off in any case). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A fresh test library (LABELDESK_HOME) whose folder `sub` holds copies of the named real photos
 * (and what `prepare` adds), labelled by `labeldesk label` on the embedded service's models.
 */
export async function labelledHome(setup: LibrarySetup) {
  const media = await realMediaDir();
  const h = await cliHome();
  const folder = join(h.dir, setup.sub);
  await mkdir(folder);
  for (const name of setup.photos ?? []) await copyFile(join(media, name), join(folder, name));
  await setup.prepare?.(folder, media);
  await cliJson(['label', folder, '-y'], cliEnv(h.home, { ...NO_KEYCHAIN, ...setup.env }));
  return { home: h.home, folder, remove: h.remove };
}

/**
 * The file's app in browser mode on a labelled library (see labelledHome): started and opened
 * before the file's tests, closed (its home removed) after them. Registers its own Vitest hooks.
 */
export function labelledApp(setup: LibrarySetup, timeoutMs = 300_000) {
  let app: BrowserApp | undefined;
  let home: { home: string; folder: string; remove: () => Promise<void> } | undefined;
  beforeAll(async () => {
    home = await labelledHome(setup);
    app = await startBrowserApp({ LABELDESK_HOME: home.home, ...NO_KEYCHAIN, ...setup.env });
    await openApp(app);
  }, timeoutMs);
  afterAll(async () => {
    await app?.close();
    await home?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('labelledApp: the app did not start');
    return value;
  };
  return {
    app: () => started(app),
    page: () => started(app).page,
    home: () => started(home).home,
  };
}

/** Opens a library item by its file name (double click on its tile). */
export async function openItem(page: Page, name: string): Promise<void> {
  const grid = page.getByRole('grid', { name: 'Library' });
  await grid
    .getByRole('gridcell', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) })
    .dblclick();
}
