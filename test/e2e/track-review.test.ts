/**
 * Review by track on a real clip (the first seconds of OpenCV's vtest.avi, labelled by the embedded
 * real models): the `Tracks` list beside the clip, picked with the mouse, sorted, walked to its
 * ends with `[` `]`; a box picked on the picture or in the Boxes list selecting its track; a track
 * accepted, one split at the time shown between analysed frames, two merged, and one Ctrl+Z
 * undoing the merge. After each step the list and the boxes of the frame shown are checked.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type BrowserApp, type Workspace } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';
import { startRealClipApp, videoTime } from './real-clip-app.js';
import { at, options, stageBox, type Opt } from './review-steps.js';

/** A track action or an undo, then its refetch, can take seconds on a loaded machine. */
const SLOW = { timeout: 15_000 };

let app: BrowserApp;
let ws: Workspace;
let clipName: string;

beforeAll(async () => {
  ({ app, ws, clipName } = await startRealClipApp('labeldesk-tracks-'));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

interface Track {
  name: string;
  label: string;
  id: number;
  start: number;
  end: number;
  boxes: number;
  selected: boolean;
}

const NAME = /^(.+) #(\d+) · (\d\d):(\d\d\.\d)–(\d\d):(\d\d\.\d) · (\d+) box(?:es)?( · \w+)?$/;

/** The Tracks list as a person reads it (every option: the clip's tracks fit in view). */
async function tracks(page: Page): Promise<Track[]> {
  const names = await page
    .getByRole('listbox', { name: 'Tracks' })
    .getByRole('option')
    .evaluateAll((els) =>
      els.map((e) => [e.getAttribute('aria-label') ?? '', e.getAttribute('aria-selected')]),
    );
  return names.map(([name, selected]) => {
    const m = NAME.exec(name ?? '');
    if (!m) throw new Error(`not a track's name: ${name}`);
    const [, label, id, m1, s1, m2, s2, boxes] = m;
    return {
      name: name ?? '',
      label: label ?? '',
      id: Number(id),
      start: Number(m1) * 60 + Number(s1),
      end: Number(m2) * 60 + Number(s2),
      boxes: Number(boxes),
      selected: selected === 'true',
    };
  });
}

const option = (page: Page, t: Track) =>
  page.getByRole('listbox', { name: 'Tracks' }).getByRole('option', { name: t.name });
const time = videoTime;
/** The tracks (`#id`) of the boxes listed for the frame shown, and which are selected. */
async function boxTracks(page: Page) {
  const opts = await options(page);
  const selected = await page
    .getByRole('listbox', { name: 'Boxes' })
    .getByRole('option', { selected: true })
    .evaluateAll((els) => els.map((e) => e.id));
  return opts.map((o) => ({
    track: Number(/#(\d+)/.exec(o.text)?.[1] ?? 0),
    selected: selected.includes(o.id),
    accepted: o.text.includes('accepted'),
  }));
}

const trackOf = (o: Opt) => Number(/#(\d+)/.exec(o.text)?.[1] ?? 0);
const selectedTracks = async (page: Page) =>
  (await tracks(page)).filter((t) => t.selected).map((t) => t.id);
/** A point of `box` inside no other box (so a click there picks it), or its centre. */
function clearPoint(box: Opt['bbox'], others: Opt['bbox'][]) {
  const inside = (p: { x: number; y: number }, b: Opt['bbox']) =>
    p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;
  const tries = [0.5, 0.3, 0.7, 0.15, 0.85].flatMap((fx) =>
    [0.5, 0.3, 0.7, 0.15, 0.85].map((fy) => ({ x: box.x + box.w * fx, y: box.y + box.h * fy })),
  );
  return (
    tries.find((p) => !others.some((o) => inside(p, o))) ?? (tries[0] as { x: number; y: number })
  );
}
/** Whether the track's option is inside the list's visible area. */
async function inView(page: Page, t: Track) {
  const list = await page.getByRole('listbox', { name: 'Tracks' }).boundingBox();
  const row = await option(page, t).boundingBox();
  return !!list && !!row && row.y >= list.y - 1 && row.y + row.height <= list.y + list.height + 1;
}

describe('review by track', () => {
  it('lists the clip’s tracks; picking one goes to its first box and highlights it; [ and ] go to its ends', async () => {
    const { page } = app;
    await labelFolder(app, ws.folder);
    await openItem(page, clipName);
    await expect
      .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), {
        timeout: 120_000,
      })
      .toBe(768);
    const list = page.getByRole('listbox', { name: 'Tracks' });
    await list.getByRole('option').first().waitFor();
    const byStart = await tracks(page);
    expect(byStart.length).toBeGreaterThanOrEqual(3);
    expect(byStart.some((t) => t.label === 'person' && t.boxes >= 5)).toBe(true);
    expect(byStart.map((t) => t.start)).toEqual(
      [...byStart.map((t) => t.start)].sort((a, b) => a - b),
    );

    // Longest first.
    await page.getByRole('combobox', { name: 'Sort tracks' }).selectOption({ label: 'Length' });
    const lengths = async () => (await tracks(page)).map((t) => Math.round((t.end - t.start) * 10));
    const descending = (l: number[]) => l.every((x, i) => i === 0 || (l[i - 1] as number) >= x);
    expect(descending(byStart.map((t) => Math.round((t.end - t.start) * 10)))).toBe(false);
    await expect.poll(async () => descending(await lengths())).toBe(true);
    const [longest] = await tracks(page);
    await option(page, longest!).click();
    await expect.poll(() => time(page)).toBeCloseTo(longest!.start, 0);
    // The box of that track on this frame is listed and selected (the picture shows it selected).
    await expect
      .poll(async () => (await boxTracks(page)).filter((b) => b.selected).map((b) => b.track))
      .toEqual([longest!.id]);
    await page
      .getByRole('img', { name: new RegExp(`Selected on the timeline: .*#${longest!.id} `) })
      .waitFor();
    await screenshot(page, 'track-review-picked');
    // One colour per class everywhere: the track's swatch and its box's swatch agree.
    const swatch = (l: ReturnType<Page['getByRole']>) =>
      l.locator('.swatch').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(
      await swatch(
        page.getByRole('listbox', { name: 'Boxes' }).getByRole('option', { selected: true }),
      ),
    ).toBe(await swatch(option(page, longest!)));

    await page.keyboard.press(']');
    await expect.poll(() => time(page)).toBeCloseTo(longest!.end, 0);
    await expect
      .poll(async () => (await boxTracks(page)).filter((b) => b.selected).map((b) => b.track))
      .toEqual([longest!.id]);
    await page.keyboard.press('[');
    await expect.poll(() => time(page)).toBeCloseTo(longest!.start, 0);
  }, 600_000);

  it('a box picked in the Boxes list or on the picture selects its track in the Tracks list', async () => {
    const { page } = app;
    const [longest] = await tracks(page);
    // A frame with a box of the longest track and one of another track.
    const both = (l: Opt[]) =>
      l.some((o) => trackOf(o) === longest!.id) &&
      l.some((o) => trackOf(o) > 0 && trackOf(o) !== longest!.id);
    let opts = await options(page);
    for (let i = 0; i < 40 && !both(opts); i++) {
      const t = await time(page);
      await page.getByRole('button', { name: 'Next detection' }).click();
      await expect.poll(() => time(page)).toBeGreaterThan(t);
      opts = await options(page);
    }
    expect(both(opts)).toBe(true);
    const mine = opts.find((o) => trackOf(o) === longest!.id)!;
    const other = opts.find((o) => trackOf(o) > 0 && trackOf(o) !== longest!.id)!;
    const otherTrack = (await tracks(page)).find((t) => t.id === trackOf(other))!;
    const at0 = await time(page);

    // In the Boxes list: its track becomes the one selected (and in view); the clip stays put.
    await page.getByRole('listbox', { name: 'Boxes' }).locator(`[id="${other.id}"]`).click();
    await expect.poll(() => selectedTracks(page)).toEqual([otherTrack.id]);
    expect(await inView(page, otherTrack)).toBe(true);
    expect(await time(page)).toBeCloseTo(at0, 3);
    expect((await boxTracks(page)).filter((b) => b.selected).map((b) => b.track)).toEqual([
      otherTrack.id,
    ]);
    await page
      .getByRole('img', { name: new RegExp(`Selected on the timeline: .*#${otherTrack.id} `) })
      .waitFor();

    // On the picture: a click on the longest track's box selects that track again.
    const stage = await stageBox(page, clipName);
    const point = clearPoint(
      mine.bbox,
      opts.filter((o) => o !== mine).map((o) => o.bbox),
    );
    await page.mouse.click(at(stage, point.x, point.y).x, at(stage, point.x, point.y).y);
    await expect.poll(() => selectedTracks(page)).toEqual([longest!.id]);
    expect(await inView(page, longest!)).toBe(true);
    expect((await boxTracks(page)).filter((b) => b.selected).map((b) => b.track)).toEqual([
      longest!.id,
    ]);
    await screenshot(page, 'track-review-box-picked');
    await page.keyboard.press('[');
    await expect.poll(() => time(page)).toBeCloseTo(longest!.start, 0);
  }, 120_000);

  it('accepts the picked track: its name says so, and its boxes on every frame are accepted', async () => {
    const { page } = app;
    const [longest] = await tracks(page);
    await page.getByRole('button', { name: 'Accept track' }).click();
    await expect
      .poll(async () => (await tracks(page))[0]?.name, SLOW)
      .toBe(`${longest!.name} · accepted`);
    const mine = async () => (await boxTracks(page)).filter((b) => b.track === longest!.id);
    await expect.poll(async () => (await mine()).map((b) => b.accepted)).toEqual([true]);
    await page.keyboard.press(']');
    await expect.poll(() => time(page)).toBeCloseTo(longest!.end, 0);
    await expect.poll(async () => (await mine()).map((b) => b.accepted)).toEqual([true]);

    // By key: Alt+R rejects the track (still listed, to be found again); Ctrl+Z accepts it again.
    await page.keyboard.press('Alt+r');
    await expect
      .poll(async () => (await tracks(page))[0]?.name, SLOW)
      .toBe(`${longest!.name} · rejected`);
    await page.keyboard.press('Control+z');
    await expect
      .poll(async () => (await tracks(page))[0]?.name, SLOW)
      .toBe(`${longest!.name} · accepted`);
    await expect.poll(async () => (await mine()).map((b) => b.accepted)).toEqual([true]);
  }, 120_000);

  it('splits a track at the time shown between analysed frames: the later boxes become a new track', async () => {
    const { page } = app;
    const before = await tracks(page);
    const second = before[1]!;
    await option(page, second).click();
    await expect.poll(() => time(page)).toBeCloseTo(second.start, 0);
    // Two analysed frames on, then one video frame back: between two analysed frames inside the
    // track, nearer the earlier one (a cut there at the nearest analysed frame would take it).
    for (let i = 0; i < 2; i++) {
      const t = await time(page);
      await page.getByRole('button', { name: 'Next detection' }).click();
      await expect.poll(() => time(page)).toBeGreaterThan(t);
    }
    expect(await time(page)).toBeLessThanOrEqual(second.end + 0.05);
    const analysed = await time(page);
    await page.keyboard.press(',');
    await expect.poll(() => time(page)).toBeLessThan(analysed);
    await page.getByText(/^Between analysed frames/).waitFor();
    const cut = await time(page);
    expect(cut).toBeGreaterThan(second.start + 0.05);
    await page.getByRole('button', { name: 'Split track' }).click();
    await expect.poll(async () => (await tracks(page)).length, SLOW).toBe(before.length + 1);
    const after = await tracks(page);
    const head = after.find((t) => t.id === second.id)!;
    const tail = after.find((t) => !before.some((b) => b.id === t.id))!;
    expect(head.start).toBeCloseTo(second.start, 1);
    // The cut is at the time shown: the analysed frame before it stays in the track.
    expect(head.end).toBeLessThan(cut);
    expect(head.end).toBeGreaterThan(second.start);
    expect(tail.start).toBeGreaterThan(cut);
    expect(tail.start).toBeCloseTo(analysed, 0);
    expect(tail.end).toBeCloseTo(second.end, 1);
    expect(head.boxes + tail.boxes).toBe(second.boxes);
    expect(tail.label).toBe(second.label);
    // On the next analysed frame, the box is in the new track.
    await page.getByRole('button', { name: 'Next detection' }).click();
    await expect.poll(() => time(page)).toBeGreaterThan(cut);
    await expect.poll(async () => (await boxTracks(page)).map((b) => b.track)).toContain(tail.id);
    expect((await boxTracks(page)).map((b) => b.track)).not.toContain(second.id);
    await screenshot(page, 'track-review-split');
  }, 120_000);

  it('merges two tracks picked with Ctrl+click, and one Ctrl+Z gives both back', async () => {
    const { page } = app;
    await page.getByRole('combobox', { name: 'Sort tracks' }).selectOption({ label: 'Start' });
    const before = await tracks(page);
    // Two tracks of one class (the tail of the split one and another).
    const label = before[0]!.label;
    const [a, b] = before.filter((t) => t.label === label && !t.name.endsWith('accepted'));
    expect(a && b).toBeTruthy();
    await option(page, a!).click();
    await option(page, b!).click({ modifiers: ['Control'] });
    await expect
      .poll(async () => (await tracks(page)).filter((t) => t.selected).map((t) => t.id))
      .toEqual([a!.id, b!.id]);
    await page.getByRole('button', { name: 'Merge tracks' }).click();
    await expect.poll(async () => (await tracks(page)).length, SLOW).toBe(before.length - 1);
    const merged = (await tracks(page)).find((t) => t.id === Math.min(a!.id, b!.id))!;
    expect(merged.boxes).toBe(a!.boxes + b!.boxes);
    expect(merged.start).toBeCloseTo(Math.min(a!.start, b!.start), 1);
    expect(merged.end).toBeCloseTo(Math.max(a!.end, b!.end), 1);
    // Every other track is still there, box for box (ids after the merged-away one may move up).
    const rest = (await tracks(page)).filter((t) => t.id !== merged.id);
    const spans = (l: Track[]) => l.map((t) => `${t.label} ${t.start} ${t.end} ${t.boxes}`).sort();
    expect(spans(rest)).toEqual(spans(before.filter((t) => t !== a && t !== b)));
    expect((await tracks(page)).filter((t) => t.selected).map((t) => t.id)).toEqual([merged.id]);
    // The boxes say so too: on its last frame, the box is in the merged track.
    await option(page, merged).click();
    await page.keyboard.press(']');
    await expect.poll(async () => (await boxTracks(page)).map((x) => x.track)).toContain(merged.id);
    await screenshot(page, 'track-review-merged');

    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await tracks(page)).length, SLOW).toBe(before.length);
    expect((await tracks(page)).map((t) => t.name)).toEqual(before.map((t) => t.name));
    // The frame shown lists its boxes in their own tracks again.
    const listed = new Set(before.map((t) => t.id));
    const here = (await boxTracks(page)).map((x) => x.track).filter((t) => t > 0);
    expect(here.every((t) => listed.has(t))).toBe(true);
    expect(here.some((t) => t === a!.id || t === b!.id)).toBe(true);

    // `?` lists the track keys beside the clip's.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Review shortcuts' });
    for (const what of [/First box of the selected track/, /Split the selected track/]) {
      await help.getByText(what).waitFor();
    }
    await page.keyboard.press('Escape');
  }, 120_000);
});
