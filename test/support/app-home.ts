/**
 * A temp folder for an application-level test: its LABELDESK_HOME, marked as a test's home (so
 * the app never reaches the person's keychain entries), and an empty media folder beside it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Application } from '../../electron/application/application-types.js';
import { TEST_HOME_MARKER } from '../../electron/application/service-connection.js';
import { tempDir } from './temp-dir.js';

export interface AppHome {
  home: string;
  /** The media folder to fill and label. */
  dir: string;
  remove(): Promise<void>;
}

export async function appHome(prefix: string): Promise<AppHome> {
  const tmp = await tempDir(prefix);
  const home = join(tmp.dir, 'home');
  const dir = join(tmp.dir, 'media');
  await mkdir(home);
  await mkdir(dir);
  await writeFile(join(home, TEST_HOME_MARKER), '');
  return { home, dir, remove: tmp.remove };
}

type FolderLister = Pick<Application['handlers'], 'folders.list'>;

/** Until the first folder is scanned with `files` new files (up to 30 s, as the tests allowed). */
export async function untilScanned(h: FolderLister, files: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const [f] = await h['folders.list']({});
    if (f && !f.scanning && f.counts.new === files) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
