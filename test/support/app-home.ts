/**
 * A temp folder for an application-level test: its LABELDESK_HOME, marked as a test's home (so
 * the app never reaches the person's keychain entries), and an empty media folder beside it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
