/**
 * The start most end-to-end files share: a workspace (a temp folder with an empty media folder)
 * that the file's own `prepare` fills, then the app in browser mode on a fresh home inside it,
 * without a keychain; one for the whole file, closed and removed after its last test.
 */
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  NO_KEYCHAIN,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from '../e2e/browser-app.js';

export interface AppPerFile {
  readonly app: BrowserApp;
  readonly ws: Workspace;
}

export function appPerFile(o: {
  /** The temp folder's name prefix (`labeldesk-export-`). */
  prefix: string;
  /** The media folder's name inside it. */
  folder: string;
  /** Puts the media (and what else the tests read) in place before the app starts. */
  prepare?: (ws: Workspace) => Promise<unknown>;
  timeoutMs?: number;
}): AppPerFile {
  let app: BrowserApp | undefined;
  let ws: Workspace | undefined;
  beforeAll(async () => {
    ws = await workspace(o.prefix, o.folder);
    await o.prepare?.(ws);
    await ageFiles(ws.folder);
    app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home'), ...NO_KEYCHAIN });
  }, o.timeoutMs ?? 120_000);
  afterAll(async () => {
    await app?.close();
    await ws?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the app is used before its beforeAll ran');
    return value;
  };
  return {
    get app() {
      return started(app);
    },
    get ws() {
      return started(ws);
    },
  };
}

/**
 * Dates the prepared media a minute back, as a person's files are when they add the folder: a
 * scan leaves a file written in its last two seconds for a rescan moments later (a copy may still
 * be under way), and a run started in between would not see it.
 */
async function ageFiles(folder: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), past, past);
  }
}
