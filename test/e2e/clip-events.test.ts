/**
 * What happened when, in Chromium on a real clip (the first 10 s of OpenCV's vtest.avi, labelled
 * by the embedded real models): the Events list names each class's ranges with their tracks, a
 * click on one seeks the clip to its start, the count chart under the timeline is drawn in the
 * classes' colours, and a click on the chart seeks there. The export dialog's "Events (CSV)"
 * writes the same ranges as the panel shows.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../support/browser-app-fixture.js';
import { parseCsv } from '../support/cli-exports.js';
import { realMediaDir } from '../support/real-media.js';
import { screenshot } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';

const run = promisify(execFile);
const CLIP = 'vtest-10s.avi';
const EVENT = /^([a-z ]+): (\d\d):(\d\d)(?:–(\d\d):(\d\d))?, (\d+) tracks?$/;

/** What the Events list showed, for the export to be checked against. */
let shown: ReadEvent[] = [];

const t = appPerFile({
  prefix: 'labeldesk-events-',
  folder: 'clips',
  prepare: async (ws) => {
    const src = join(await realMediaDir(), 'vtest.avi');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      src,
      '-t',
      '10',
      '-c',
      'copy',
      join(ws.folder, CLIP),
    ]);
  },
});

const time = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);

interface ReadEvent {
  name: string;
  label: string;
  start: number;
  end: number;
  tracks: number;
}

async function readEvents(page: Page): Promise<ReadEvent[]> {
  const list = page.getByRole('list', { name: 'Events' });
  await list.getByRole('button').first().waitFor({ timeout: 60_000 });
  const names = await list.getByRole('button').allTextContents();
  return names.map((name) => {
    const m = EVENT.exec(name);
    expect(m, name).not.toBeNull();
    const [, label, m1, s1, m2, s2, tracks] = m as RegExpExecArray;
    const start = Number(m1) * 60 + Number(s1);
    const end = m2 === undefined ? start : Number(m2) * 60 + Number(s2);
    return { name, label: label as string, start, end, tracks: Number(tracks) };
  });
}

describe('clip events and the count chart', () => {
  it('lists the events of the clip, and a click on one seeks the clip to its start', async () => {
    const { page } = t.app;
    await labelFolder(t.app, t.ws.folder);
    await openItem(page, CLIP);
    const video = page.locator('video');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 120_000 })
      .toBe(768);

    const events = await readEvents(page);
    shown = events;
    // Pedestrians walk through the whole clip: people are an event from the start.
    const people = events.filter((e) => e.label === 'person');
    expect(people.length).toBeGreaterThan(0);
    expect(people[0]?.start).toBe(0);
    expect(people.reduce((n, e) => n + e.tracks, 0)).toBeGreaterThan(2);
    for (const e of events) {
      expect(e.end).toBeGreaterThanOrEqual(e.start);
      expect(e.end).toBeLessThanOrEqual(10);
    }
    // Time order.
    expect(events.map((e) => e.start)).toEqual(
      [...events.map((e) => e.start)].sort((a, b) => a - b),
    );

    // From near the end of the clip (a click on the timeline), back to the latest event's start.
    const timeline = page.getByRole('img', { name: 'Detections over time' });
    const tl = (await timeline.boundingBox())!;
    await page.mouse.click(tl.x + tl.width * 0.97, tl.y + tl.height / 2);
    await expect.poll(() => time(page)).toBeGreaterThan(8);
    const latest = events.at(-1) as ReadEvent;
    await page.getByRole('button', { name: latest.name }).click();
    await expect.poll(() => time(page)).toBeLessThan(latest.start + 1);
    expect(await time(page)).toBeGreaterThanOrEqual(latest.start);
    // Paused on its first box: the frame's boxes include the event's class, and the event is current.
    const boxes = page.getByRole('listbox', { name: 'Boxes' });
    await expect
      .poll(() =>
        boxes
          .getByRole('option')
          .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')),
      )
      // A box is "label 0.87"; a conflict's one row "label / other · conflict" names each class.
      .toSatisfy((names: string[]) =>
        names.some((n) =>
          n
            .replace(/ · conflict$|( [01]\.\d\d)$/, '')
            .split(' / ')
            .includes(latest.label),
        ),
      );
    await expect
      .poll(() => page.getByRole('button', { name: latest.name }).getAttribute('aria-current'))
      .toBe('true');
    await screenshot(page, 'clip-events');
  }, 600_000);

  it('draws the count chart in the classes’ colours, and a click on it seeks there', async () => {
    const { page } = t.app;
    const chart = page.getByRole('img', { name: 'Objects over time' });
    await chart.waitFor();
    const legend = await chart.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
    );
    expect(legend).toMatch(/person, up to \d+ at once/);
    // Pixels of the person line: the colour of the legend's person swatch, drawn on the canvas.
    const personPixels = await chart.evaluate((el) => {
      const items = Array.from(document.querySelectorAll('.chart-legend-item'));
      const person = items.find((i) => i.textContent?.startsWith('person'));
      const swatch = person?.querySelector('.class-swatch');
      const rgb = (swatch ? getComputedStyle(swatch).backgroundColor : '')
        .match(/\d+/g)
        ?.map(Number);
      const canvas = el.querySelector('canvas');
      const ctx = canvas?.getContext('2d');
      if (!rgb || !canvas || !ctx) return -1;
      const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        const near = [0, 1, 2].every(
          (k) => Math.abs((d[i + k] as number) - (rgb[k] as number)) < 12,
        );
        if (near && (d[i + 3] as number) > 200) n++;
      }
      return n;
    });
    expect(personPixels).toBeGreaterThan(200);

    // The middle of the plotting area is the middle of the clip.
    const over = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.click(over.x + over.width / 2, over.y + over.height / 2);
    const duration = await page.locator('video').evaluate((v: HTMLVideoElement) => v.duration);
    await expect.poll(() => time(page)).toBeCloseTo(duration / 2, 0);
    // The chart's playhead is the timeline's: one time axis, one line down both.
    const heads = await page
      .locator('.detection-timeline-box .timeline-playhead, .count-chart .timeline-playhead')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().x));
    expect(heads).toHaveLength(2);
    expect(Math.abs((heads[0] as number) - (heads[1] as number))).toBeLessThan(1.5);
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, 'clip-count-chart');

    // Hidden, the chart and the Events give the picture their height; shown again, both are back.
    const picture = page.locator('video');
    const before = (await picture.boundingBox())!.height;
    await page.getByRole('button', { name: 'Hide counts and events' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Events' }).count()).toBe(0);
    await expect
      .poll(async () => (await picture.boundingBox())!.height)
      .toBeGreaterThan(before + 50);
    await screenshot(page, 'clip-summary-hidden');
    const show = page.getByRole('button', { name: 'Show counts and events' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await show.click();
    await chart.waitFor();
    await page.getByRole('list', { name: 'Events' }).waitFor();
  }, 120_000);

  it('the export dialog writes the events as CSV, the same ranges as the panel', async () => {
    const { page } = t.app;
    await page.getByRole('button', { name: 'Back to library' }).click();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export boxes' });
    await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'Events (CSV)' });
    const out = join(t.ws.dir, 'events.csv');
    await dialog.getByRole('textbox', { name: 'Destination' }).fill(out);
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: /^Exported/ })
      .waitFor({ timeout: 60_000 });
    await screenshot(page, 'clip-events-export');

    const [header, ...rows] = parseCsv(await readFile(out, 'utf8'));
    expect(header).toEqual(['clip', 'class', 'track', 'start', 'end', 'boxes', 'meanScore']);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set([join(t.ws.folder, CLIP)]));
    // Per class, the rows' tracks and the span they cover are the panel's (whole seconds shown).
    for (const e of shown) {
      const mine = rows.filter(
        (r) => r[1] === e.label && Number(r[3]) < e.end + 1 && Number(r[4]) >= e.start,
      );
      expect(mine.length, e.name).toBe(e.tracks);
      expect(Math.floor(Math.min(...mine.map((r) => Number(r[3]))))).toBe(e.start);
      expect(Math.floor(Math.max(...mine.map((r) => Number(r[4]))))).toBe(e.end);
    }
    expect(rows.length).toBe(shown.reduce((n, e) => n + e.tracks, 0));
  }, 120_000);
});
