/**
 * Issue 28, on a real clip (the first seconds of OpenCV's vtest.avi, labelled by the embedded real
 * models): a box the tracker could not place in a track is marked unconfirmed in the Boxes list
 * (its state and its accessible name), and a box in a track never is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserApp, Workspace } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';
import { startRealClipApp, videoTime } from './real-clip-app.js';
import { options, type Opt } from './review-steps.js';

let app: BrowserApp;
let ws: Workspace;
let clipName: string;

beforeAll(async () => {
  ({ app, ws, clipName } = await startRealClipApp('labeldesk-unplaced-'));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

const inTrack = (o: Opt) => /#\d+/.test(o.text);

describe('boxes in no track in the video review', () => {
  it('are named and listed unconfirmed; boxes in tracks are not', async () => {
    const { page } = app;
    await labelFolder(app, ws.folder);
    await openItem(page, clipName);
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
        timeout: 120_000,
      })
      .toBe(768);
    await page.getByRole('listbox', { name: 'Boxes' }).getByRole('option').first().waitFor();
    const seen: Opt[] = [];
    // Walk the analysed frames until one shows a box in no track.
    for (let i = 0; i < 40 && !seen.some((o) => !inTrack(o)); i++) {
      const before = await videoTime(page);
      seen.push(...(await options(page)));
      await page.getByRole('button', { name: 'Next detection' }).click();
      await expect.poll(() => videoTime(page)).not.toBe(before);
      await page.getByRole('heading', { name: /^Boxes at / }).waitFor();
    }
    const unplaced = seen.filter((o) => !inTrack(o));
    expect(unplaced.length).toBeGreaterThan(0);
    for (const o of unplaced) {
      expect(o.name).toMatch(/^unconfirmed .+ \d\.\d\d$/);
      expect(o.text).toContain('unconfirmed');
    }
    for (const o of seen.filter(inTrack)) expect(o.name).not.toMatch(/unconfirmed/);
  });
});
