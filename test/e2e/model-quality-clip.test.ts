/**
 * A mistake on a clip is one click away too: a person drew a box the model missed on one analysed
 * frame of a real clip (pedestrians, labelled by the real models) and marked the clip reviewed;
 * from Quality, the miss opens the video review paused on that frame with the box selected.
 */
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewService } from '../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import { realMediaFolder } from '../support/cli-media.js';
import { cliEnv, cliJson } from '../support/cli-run.js';
import {
  NO_KEYCHAIN,
  openApp,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

let app: BrowserApp;
let ws: Workspace;
let clipName: string;
/** The analysed frame the kite is drawn on. */
let drawnAt: { frameIndex: number; timeMs: number };

beforeAll(async () => {
  ws = await workspace('labeldesk-quality-clip-', 'clips');
  const scratch = join(ws.dir, 'scratch');
  await mkdir(scratch);
  const real = await realMediaFolder(scratch);
  clipName = basename(real.good.clip);
  const home = join(ws.dir, 'home');
  await mkdir(home, { recursive: true });
  await cliJson(['label', real.good.clip, '-y'], cliEnv(home, NO_KEYCHAIN));
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    const clip = store.media.byPath(real.good.clip)!;
    const review = new ReviewService(store);
    // The last analysed frame with a box, so the review has to seek to it.
    const frames = review.item(clip.id, 'objects').boxes.filter((b) => b.timeMs !== null);
    const last = frames.at(-1)!;
    drawnAt = { frameIndex: last.frameIndex, timeMs: last.timeMs! };
    review.edit(clip.id, 'objects', {
      kind: 'add',
      ...drawnAt,
      label: 'kite',
      bbox: { x: 0.02, y: 0.02, w: 0.1, h: 0.1 },
    });
    expect(store.reviewed.markReviewed([clip.id], 'objects', 'person')).toEqual([clip.id]);
  } finally {
    store.close();
  }
  app = await startBrowserApp({ LABELDESK_HOME: home, ...NO_KEYCHAIN });
  await openApp(app);
}, 300_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

describe('model quality on a clip', () => {
  it('a miss opens the video review on its frame with the box selected', async () => {
    const { page } = app;
    expect(drawnAt.timeMs).toBeGreaterThan(0);
    await page.keyboard.press('Control+5');
    const misses = page.getByRole('list', { name: 'Misses' });
    await misses
      .getByRole('button', { name: new RegExp(`^Missed kite in ${clipName.replace('.', '\\.')}`) })
      .click();
    const heading = page.getByRole('heading', { name: /^Boxes at/ });
    await expect
      .poll(
        async () => Number(/Boxes at ([\d.]+) s/.exec((await heading.textContent()) ?? '')?.[1]),
        {
          timeout: 120_000,
        },
      )
      .toBeCloseTo(drawnAt.timeMs / 1000, 1);
    const chosen = page
      .getByRole('listbox', { name: 'Boxes' })
      .getByRole('option', { selected: true });
    await expect
      .poll(() => chosen.getAttribute('aria-label'), { timeout: 30_000 })
      .toMatch(/^kite\b/);
    await screenshot(page, 'quality-clip-mistake-opened');
  }, 240_000);
});
