/**
 * The start the clip tests share: a watched folder holding the real clip vtest.avi (OpenCV's, from
 * the cached real media) and the app in browser mode on a fresh home, without a keychain.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { realMediaFolder } from '../support/cli-media.js';
import {
  NO_KEYCHAIN,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

export interface RealClipApp {
  app: BrowserApp;
  ws: Workspace;
  /** The clip's file name in the watched folder. */
  clipName: string;
}

export async function startRealClipApp(prefix: string): Promise<RealClipApp> {
  const ws = await workspace(prefix, 'clips');
  const scratch = join(ws.dir, 'scratch');
  await mkdir(scratch);
  const real = await realMediaFolder(scratch);
  const clipName = basename(real.good.clip);
  await copyFile(real.good.clip, join(ws.folder, clipName));
  const app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home'), ...NO_KEYCHAIN });
  return { app, ws, clipName };
}

/** Where the clip's picture is, in seconds. */
export const videoTime = (page: Page) =>
  page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
