/**
 * A file written moments before a folder's scan may still be being written: the scan leaves it
 * for a scan moments later. Until then the folder still shows as scanning, so a person never sees
 * it done and then one more file appear.
 */
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import type { FolderView } from '../../../electron/shared/contract/index.js';
import { appHome, type AppHome } from '../../support/app-home.js';

let app: Application;
let at: AppHome;

const photo = (file: string, colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toFile(file);

beforeAll(async () => {
  at = await appHome('labeldesk-settling-');
  await photo(join(at.dir, 'old.jpg'), '#c33');
  const minuteAgo = Math.floor(Date.now() / 1000) - 60;
  await utimes(join(at.dir, 'old.jpg'), minuteAgo, minuteAgo);
  // Written just now: younger than the settle time when the scan meets it.
  await photo(join(at.dir, 'fresh.jpg'), '#3c3');
  app = await createApplication({
    transport: 'in-process',
    mediaBase: 'test://',
    env: { ...process.env, LABELDESK_HOME: at.home, LABELDESK_EMBEDDED_ENGINE: 'null' },
  });
});

afterAll(async () => {
  await app?.close();
  await at?.remove();
});

it('shows a folder as scanning until the file still being written is listed', async () => {
  const h = app.handlers;
  await h['folders.add']({ path: at.dir });
  const seen: FolderView[] = [];
  let done: FolderView | undefined;
  for (let i = 0; i < 400 && !done; i++) {
    const [view] = await h['folders.list']({});
    if (view) seen.push(view);
    if (view && !view.scanning) done = view;
    else await new Promise((r) => setTimeout(r, 25));
  }
  // The first scan listed the older photo alone while the fresh one settled…
  expect(seen.some((v) => v.scanning && v.counts.images === 1)).toBe(true);
  // …and the folder was never shown done without it.
  expect(done?.counts.images).toBe(2);
});
