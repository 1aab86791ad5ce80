/**
 * The Folders screen in Chromium, as a person sees a library folder on a drive: a link to `/`
 * inside it is listed once among its issues, never walked; the drive unmounted shows "Folder
 * missing" with watching paused and the photo still in the library; mounted again, the folder
 * resumes by itself. A real tmpfs mount when the tests run as root (else the folder is moved away
 * and back, which the watcher sees the same way).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realMediaDir } from '../support/real-media.js';
import {
  addFolderByPath,
  openApp,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
} from './browser-app.js';

const asRoot = process.getuid?.() === 0;
let app: BrowserApp;
let drive: string;
let folder: string;
let remove: () => Promise<void>;
let mounted = false;

async function fillFolder(): Promise<void> {
  await mkdir(folder, { recursive: true });
  await copyFile(join(await realMediaDir(), 'messi5.jpg'), join(folder, 'messi5.jpg'));
  await symlink('/', join(folder, 'root-link'));
}

/** The drive goes away (unmounted, or the folder moved off) and comes back. */
function unplug(): Promise<void> {
  if (asRoot) {
    execFileSync('umount', [drive]);
    mounted = false;
    return Promise.resolve();
  }
  return rename(join(drive, 'photos'), join(drive, 'away'));
}

async function plugBackIn(): Promise<void> {
  if (!asRoot) return rename(join(drive, 'away'), join(drive, 'photos'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', drive]);
  mounted = true;
  await fillFolder();
}

beforeAll(async () => {
  const tmp = await workspace('labeldesk-e2e-boundary-', 'drive');
  ({ folder: drive, remove } = tmp);
  if (asRoot) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', drive]);
    mounted = true;
  }
  folder = join(drive, 'photos');
  await fillFolder();
  app = await startBrowserApp({ LABELDESK_HOME: join(tmp.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (mounted) execFileSync('umount', [drive]);
  await remove?.();
});

describe('a library folder on a drive', () => {
  it('lists a link to / once among its issues and never walks it', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    const row = await addFolderByPath(page, folder);
    await row.getByText('Scanning…').waitFor({ state: 'detached', timeout: 30_000 });
    const issues = row.getByText('1 issue');
    await issues.click();
    const item = row.getByRole('listitem').filter({ hasText: 'root-link' });
    await item.getByText('Linked folder not followed').waitFor();
    await expect.poll(() => item.getByText('linked_folder').count()).toBe(1);
    await page.keyboard.press('Control+1');
    const grid = page.getByRole('grid', { name: 'Library' });
    await grid.getByRole('gridcell', { name: /^messi5\.jpg/ }).waitFor();
    expect(await grid.getByRole('gridcell').count()).toBe(1);
  }, 120_000);

  it('shows "Folder missing" while the drive is away, keeps its photo, resumes when it is back', async () => {
    const { page } = app;
    await page.getByRole('navigation').getByRole('button', { name: 'Folders' }).click();
    const row = page.getByRole('listitem', { name: folder });
    await unplug();
    const missing = row.getByRole('status').filter({
      hasText: 'Folder missing — watching paused until it returns',
    });
    await missing.waitFor({ timeout: 15_000 });
    await screenshot(page, 'folder-missing');
    // Nothing of its items is removed meanwhile.
    await page.keyboard.press('Control+1');
    const grid = page.getByRole('grid', { name: 'Library' });
    await grid.getByRole('gridcell', { name: /^messi5\.jpg/ }).waitFor();

    await plugBackIn();
    await page.keyboard.press('Control+2');
    await missing.waitFor({ state: 'detached', timeout: 15_000 });
    await row.getByText('Scanning…').waitFor({ state: 'detached', timeout: 30_000 });
    await screenshot(page, 'folder-back');
    await page.keyboard.press('Control+1');
    await grid.getByRole('gridcell', { name: /^messi5\.jpg/ }).waitFor();
    expect(await grid.getByRole('gridcell').count()).toBe(1);
  }, 120_000);
});
