/**
 * A clip Chromium cannot play (MPEG-4 Part 2 in AVI, from OpenCV's vtest.avi), labelled by the
 * embedded real models, plays in the app through the proxy made in the background; "Next detection"
 * seeks to an analysed frame whose boxes are listed in `Boxes`, and a box is accepted by keyboard.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realMediaFolder } from '../support/cli-media.js';
import {
  NO_KEYCHAIN,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';

let app: BrowserApp;
let ws: Workspace;
let clipName: string;

beforeAll(async () => {
  ws = await workspace('labeldesk-video-', 'clips');
  const scratch = join(ws.dir, 'scratch');
  await mkdir(scratch);
  const real = await realMediaFolder(scratch);
  clipName = basename(real.good.clip);
  await copyFile(real.good.clip, join(ws.folder, clipName));
  app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home'), ...NO_KEYCHAIN });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

const videoState = (v: HTMLVideoElement) => ({
  width: v.videoWidth,
  time: v.currentTime,
  paused: v.paused,
  src: v.currentSrc,
});

describe('video review', () => {
  it('labels the clip, then plays it through its proxy', async () => {
    const { page } = app;
    await labelFolder(app, ws.folder);
    await openItem(page, clipName);
    await page.getByRole('button', { name: 'Back to library' }).waitFor();
    const video = page.locator('video');
    const time = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
    const paused = () => video.evaluate((v: HTMLVideoElement) => v.paused);
    await video.waitFor({ timeout: 120_000 });
    await expect
      .poll(() => video.evaluate(videoState), { timeout: 120_000 })
      .toMatchObject({ width: 768 });
    expect((await video.evaluate(videoState)).src).toMatch(/\/proxy\/\d+$/);
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => time(), { timeout: 30_000 }).toBeGreaterThan(0.5);
    await page.getByRole('button', { name: 'Pause' }).click();
    expect((await video.evaluate(videoState)).paused).toBe(true);
    // Space plays and pauses again (focus on the page, not on a button).
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Space');
    await expect.poll(() => paused()).toBe(false);
    await page.keyboard.press('Space');
    await expect.poll(() => paused()).toBe(true);
  }, 600_000);

  it('"Next detection" seeks to a frame whose boxes are listed, and a box is accepted', async () => {
    const { page } = app;
    const video = page.locator('video');
    const time = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 0;
    });
    await page.getByRole('button', { name: 'Next detection' }).click();
    const boxes = page.getByRole('listbox', { name: 'Boxes' });
    await boxes.getByRole('option').first().waitFor();
    const at = await time();
    expect(at).toBeGreaterThan(0);
    const heading = await page.getByRole('heading', { name: /^Boxes at/ }).textContent();
    expect(Number(/Boxes at ([\d.]+) s/.exec(heading ?? '')?.[1])).toBeCloseTo(at, 1);
    const names = await boxes
      .getByRole('option')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    for (const n of names) expect(n).toMatch(/^[a-z ]+ [01]\.\d\d$/);
    expect(names).toContainEqual(expect.stringMatching(/^person /));

    // The next detection is later still; the previous one brings us back.
    await page.getByRole('button', { name: 'Next detection' }).click();
    await expect.poll(() => time()).toBeGreaterThan(at);
    await page.getByRole('button', { name: 'Previous detection' }).click();
    await expect.poll(() => time()).toBeCloseTo(at, 2);

    const first = boxes.getByRole('option').first();
    await first.click();
    await page.keyboard.press('a');
    await expect.poll(() => first.textContent()).toContain('accepted');
    await screenshot(page, 'video-review');
  }, 120_000);
});
