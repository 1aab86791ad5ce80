/**
 * Keyframes on the real clip vtest.avi (its first 4 s, labelled by the embedded real models), as a
 * person does it: paused between analysed frames, draw a box; seek on and draw another, which
 * joins the same track; paused on a frame in between, the track's interpolated box is there,
 * dashed, exactly half way; moving it there adds a keyframe, and the boxes around follow it. The
 * export dialog's "Interpolated frames" writes that track on every frame between its keyframes.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMot } from '../support/cli-exports.js';
import { screenshot, type BrowserApp, type Workspace } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';
import { startRealClipApp, videoTime } from './real-clip-app.js';
import { at, drag, options, stageBox, type Opt } from './review-steps.js';

let app: BrowserApp;
let ws: Workspace;
let clipName: string;

beforeAll(async () => {
  ({ app, ws, clipName } = await startRealClipApp('labeldesk-keyframes-'));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

const time = videoTime;

/** Seeks the paused clip to `seconds` as the timeline or a frame step would. */
async function seekTo(page: Page, seconds: number): Promise<void> {
  await page.locator('video').evaluate((v: HTMLVideoElement, s: number) => {
    v.pause();
    v.currentTime = s;
  }, seconds);
  await expect.poll(() => time(page)).toBeCloseTo(seconds, 3);
  await expect
    .poll(async () =>
      Number(
        /^([\d.]+) s/.exec(
          (await page.getByLabel('Time', { exact: true }).textContent()) ?? '',
        )?.[1],
      ),
    )
    .toBeCloseTo(seconds, 2);
}

const trackOf = (o: Opt) => /#(\d+)/.exec(o.text)?.[1] ?? null;
const inTrack = async (page: Page, track: string) =>
  (await options(page)).filter((o) => trackOf(o) === track);

async function drawBox(page: Page, from: [number, number], to: [number, number]) {
  const stage = await stageBox(page, clipName);
  await page.getByRole('button', { name: 'Draw box' }).click();
  await drag(page, at(stage, ...from), at(stage, ...to));
}

const mid = (a: Opt['bbox'], b: Opt['bbox'], s = 0.5) => ({
  x: a.x + (b.x - a.x) * s,
  y: a.y + (b.y - a.y) * s,
  w: a.w + (b.w - a.w) * s,
  h: a.h + (b.h - a.h) * s,
});
function expectBox(actual: Opt['bbox'] | undefined, expected: Opt['bbox']) {
  expect(actual).toBeTruthy();
  for (const k of ['x', 'y', 'w', 'h'] as const) expect(actual![k]).toBeCloseTo(expected[k], 5);
}

describe('keyframes in the video review', () => {
  let track: string;
  let first: Opt['bbox'];
  let second: Opt['bbox'];

  it('draws two keyframes of one track, and shows the dashed box half way between them', async () => {
    const { page } = app;
    await labelFolder(app, ws.folder);
    await openItem(page, clipName);
    const video = page.locator('video');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 120_000 })
      .toBe(768);
    await page.getByRole('listbox', { name: 'Boxes' }).waitFor();

    // 0.5 s is frame 5 of this 10 fps clip: between the analysed frames (5 per second).
    await seekTo(page, 0.5);
    await drawBox(page, [0.02, 0.03], [0.12, 0.2]);
    const status = page.getByRole('status').filter({ hasText: /Drawn boxes join track #\d+/ });
    await status.waitFor();
    track = /#(\d+)/.exec((await status.textContent()) ?? '')![1]!;
    await expect.poll(async () => (await inTrack(page, track)).length).toBe(1);
    first = (await inTrack(page, track))[0]!.bbox;
    expect((await inTrack(page, track))[0]!.text).toMatch(/added/);

    // Frame 25: the second keyframe joins the same track.
    await seekTo(page, 2.5);
    expect(await inTrack(page, track)).toEqual([]);
    await drawBox(page, [0.3, 0.05], [0.45, 0.3]);
    await expect.poll(async () => (await inTrack(page, track)).length).toBe(1);
    second = (await inTrack(page, track))[0]!.bbox;
    expect(second.x).toBeGreaterThan(first.x + 0.2);
    expect(await status.textContent()).toMatch(new RegExp(`track #${track}\\b`));

    // Frame 15, half way: the interpolated box, listed and drawn dashed.
    await seekTo(page, 1.5);
    await expect.poll(async () => (await inTrack(page, track)).length).toBe(1);
    const between = (await inTrack(page, track))[0]!;
    expect(between.text).toMatch(/interpolated/);
    expectBox(between.bbox, mid(first, second));
    // A fifth of the way (frame 9) and next to the first keyframe (frame 7) too; analysed frames
    // (even ones) show their stored boxes only.
    await seekTo(page, 0.9);
    await expect
      .poll(async () => (await inTrack(page, track))[0]?.bbox.x)
      .toBeCloseTo(mid(first, second, 0.2).x, 5);
    expectBox((await inTrack(page, track))[0]!.bbox, mid(first, second, 0.2));
    await seekTo(page, 1.0);
    expect(await inTrack(page, track)).toEqual([]);
    await seekTo(page, 0.7);
    await expect
      .poll(async () => (await inTrack(page, track))[0]?.bbox.x)
      .toBeCloseTo(mid(first, second, 0.1).x, 5);
    await seekTo(page, 1.5);
    await screenshot(page, 'video-keyframes-between');
  }, 600_000);

  it('moving the dashed box adds a keyframe there, and the boxes around it follow', async () => {
    const { page } = app;
    const stage = await stageBox(page, clipName);
    const here = (await inTrack(page, track))[0]!;
    const centre = at(stage, here.bbox.x + here.bbox.w / 2, here.bbox.y + here.bbox.h / 2);
    await drag(page, centre, { x: centre.x, y: centre.y + 60 });
    await expect.poll(async () => (await inTrack(page, track))[0]?.text).toMatch(/added/);
    const moved = (await inTrack(page, track))[0]!.bbox;
    expect(moved.y).toBeCloseTo(here.bbox.y + 60 / stage.height, 2);
    expect(moved.x).toBeCloseTo(here.bbox.x, 5);
    // Frame 11 is now 60 % of the way from the first keyframe to the moved one.
    await seekTo(page, 1.1);
    await expect
      .poll(async () => (await inTrack(page, track))[0]?.bbox.y)
      .toBeCloseTo(mid(first, moved, 0.6).y, 5);
    expectBox((await inTrack(page, track))[0]!.bbox, mid(first, moved, 0.6));
    await screenshot(page, 'video-keyframes-moved');

    // One undo takes the new keyframe back: 30 % of the way between the first two again.
    await page.keyboard.press('Control+z');
    await expect
      .poll(async () => (await inTrack(page, track))[0]?.bbox.y)
      .toBeCloseTo(mid(first, second, 0.3).y, 5);

    // Playing, the overlay draws the track too (dashed); paused again, it is listed where it was.
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => time(page), { timeout: 30_000 }).toBeGreaterThan(1.3);
    await screenshot(page, 'video-keyframes-playing');
    await page.getByRole('button', { name: 'Pause' }).click();
  }, 300_000);

  it('exports MOT with "Interpolated frames": the drawn track on every frame between its keyframes', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Back to library' }).click();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export boxes' });
    await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'MOT' });
    const dir = join(ws.dir, 'mot-interpolated');
    await dialog.getByRole('textbox', { name: 'Destination' }).fill(dir);
    await dialog.getByRole('checkbox', { name: /Interpolated frames/ }).check();
    await screenshot(page, 'video-keyframes-export');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /^Exported/ })
      .waitFor({ timeout: 120_000 });
    const boxes = await readMot(dir);
    const drawn = boxes
      .filter((b) => b.track === Number(track))
      .sort((a, b) => a.frame! - b.frame!);
    // Keyframes on clip frames 5 and 25 (MOT frames 6 and 26), and every frame between.
    expect(drawn.map((b) => b.frame)).toEqual(Array.from({ length: 21 }, (_, i) => 6 + i));
    const half = drawn.find((b) => b.frame === 16)!;
    const m = mid(first, second);
    expect(half.xmin).toBeCloseTo(m.x * 768, 1);
    expect(half.ymin).toBeCloseTo(m.y * 576, 1);
    expect(half.xmax - half.xmin).toBeCloseTo(m.w * 768, 1);
    for (const b of boxes) {
      expect(b.frame).toBeGreaterThanOrEqual(1);
      expect(b.frame).toBeLessThanOrEqual(40);
      expect(b.xmax).toBeLessThanOrEqual(768.01);
      expect(b.ymax).toBeLessThanOrEqual(576.01);
    }
  }, 180_000);
});
