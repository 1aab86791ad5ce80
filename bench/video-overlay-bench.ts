/**
 * Video overlay: how far the review's boxes lag behind the video frame on screen, in Debian's
 * Chromium through browser mode. A 4 s piece of vtest.avi (MPEG-4 in AVI: played through its
 * proxy) is labelled on the embedded models and played in the video review. Every frame, a
 * `requestVideoFrameCallback` registered by the bench after the app's (so it runs right after it,
 * in the same rendering step) reads when the overlay canvas was last drawn (clearRect, wrapped by
 * an init script) against the frame's callback time and `expectedDisplayTime`. The baseline is a
 * bare video element on the same page and stream with the same callback drawing the same number of
 * rectangles. Goal: the overlay is drawn for the very frame shown (lag ≤ one frame).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { realMediaDir } from '../test/support/real-media.js';
import { bridge, CHROMIUM_ARGS, startApp, stopApp } from './app-bench.js';
import { fmt, printFigures } from './report.js';

const run = promisify(execFile);
const PLAY_MS = 3500;

/**
 * Marks each canvas draw: the app's playing overlay (`.box-canvas`; the box stage's own canvas is
 * empty while playing and repaints only on a change) and the bare page's canvas.
 */
const DRAW_MARKS = `window.__draws = [];
  const clear = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    window.__draws.push(performance.now());
    return clear.apply(this, args);
  };`;

interface Sample {
  /** Overlay drawn (finished) this long after the frame's callbacks began (ms); null: not drawn. */
  lagMs: number | null;
  /** Drawn before the frame's expected display time: on screen with that very frame. */
  inFrame: boolean;
  /** Frames presented since the previous callback (1: none skipped). */
  presented: number;
}

/** Plays `video` for PLAY_MS and samples each frame (the bench's callback runs last). */
function sampleFrames(page: Page, selector: string): Promise<Sample[]> {
  return page.evaluate(`(async (selector, ms) => {
    const v = document.querySelector(selector);
    v.currentTime = 0;
    await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
    const samples = [];
    let lastPresented = null;
    let stop = false;
    const onFrame = (now, meta) => {
      // Runs right after the app's callback: now, its drawing is finished.
      const finished = performance.now();
      const drawn = window.__draws.length ? window.__draws[window.__draws.length - 1] : -1;
      const lag = drawn >= now ? finished - now : null;
      samples.push({
        lagMs: lag,
        inFrame: lag !== null && finished <= meta.expectedDisplayTime,
        presented: lastPresented === null ? 1 : meta.presentedFrames - lastPresented,
      });
      lastPresented = meta.presentedFrames;
      if (!stop) v.requestVideoFrameCallback(onFrame);
    };
    v.requestVideoFrameCallback(onFrame);
    await v.play();
    await new Promise((r) => setTimeout(r, ms));
    stop = true;
    v.pause();
    return samples;
  })(${JSON.stringify(selector)}, ${PLAY_MS})`);
}

/** A bare video on the same stream with a canvas the same callback draws rectangles on. */
function addBareVideo(page: Page, src: string, boxes: number): Promise<void> {
  return page.evaluate(`((src, boxes) => {
    const wrap = document.createElement('div');
    wrap.style.cssText = 'position:fixed;left:0;top:0;z-index:99;background:#000';
    const v = document.createElement('video');
    v.id = 'bare-video'; v.src = src; v.muted = true; v.style.cssText = 'display:block;width:768px';
    const c = document.createElement('canvas');
    c.style.cssText = 'position:absolute;inset:0;width:100%;height:100%';
    wrap.append(v, c);
    document.body.append(wrap);
    const draw = () => {
      const ctx = c.getContext('2d');
      c.width = c.clientWidth; c.height = c.clientHeight;
      ctx.clearRect(0, 0, c.width, c.height);
      ctx.strokeStyle = '#ffb020';
      for (let i = 0; i < boxes; i++) ctx.strokeRect((i * 37) % 700, (i * 53) % 500, 40, 80);
    };
    const onFrame = () => { draw(); v.requestVideoFrameCallback(onFrame); };
    v.requestVideoFrameCallback(onFrame);
    return new Promise((r) => v.addEventListener('loadeddata', r, { once: true }));
  })(${JSON.stringify(src)}, ${boxes})`);
}

function summarise(samples: readonly Sample[]) {
  const lags = samples.flatMap((s) => (s.lagMs === null ? [] : [s.lagMs])).sort((a, b) => a - b);
  const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
  return {
    frames: samples.length,
    drawn: lags.length / Math.max(1, samples.length),
    inFrame: samples.filter((s) => s.inFrame).length / Math.max(1, samples.length),
    p50: pct(0.5),
    p95: pct(0.95),
    skipped: samples.reduce((n, s) => n + Math.max(0, s.presented - 1), 0),
  };
}

export async function benchVideoOverlay(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-overlay-'));
  const folder = join(dir, 'clips');
  await mkdir(folder);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', join(await realMediaDir(), 'vtest.avi')],
    ...['-t', '4', '-c', 'copy', join(folder, 'vtest-4s.avi')],
  ]);
  const app = await startApp(join(dir, 'home'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const call = await bridge(app);
    for (let i = 0; i < 600; i++) {
      const state = (await call('service.state', {})).result as { status: string };
      if (state.status === 'online') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await call('folders.add', { path: folder });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(DRAW_MARKS);
    await page.goto(app.url);
    await page.getByRole('gridcell', { name: /^vtest-4s\.avi/ }).waitFor({ timeout: 60_000 });
    const started = await call('runs.start', {
      solution: 'objects',
      budget: null,
      hourBudget: null,
    });
    if (!started.ok) throw new Error(`runs.start: ${JSON.stringify(started.result)}`);
    for (;;) {
      const cur = (await call('runs.current', {})).result as { phase?: string } | null;
      if (cur && ['done', 'stopped', 'cancelled', 'failed'].includes(cur.phase ?? '')) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    await page.getByRole('gridcell', { name: /^vtest-4s\.avi/ }).dblclick();
    await page.locator('.video-review video').waitFor({ timeout: 120_000 });
    for (let i = 0; i < 1200; i++) {
      if (await page.evaluate<boolean>(`(document.querySelector('video')?.videoWidth ?? 0) > 0`))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const boxes = await page.getByRole('listbox', { name: 'Boxes' }).getByRole('option').count();
    const appSamples = summarise(await sampleFrames(page, '.video-review video'));
    const src = await page.evaluate<string>(`document.querySelector('video')?.currentSrc ?? ''`);
    await addBareVideo(page, src, Math.max(1, boxes));
    const bare = summarise(await sampleFrames(page, '#bare-video'));
    printFigures('Video overlay (video review, Debian Chromium, 768×576 proxy of vtest.avi)', [
      {
        name: `overlay drawn for the frame on screen (${appSamples.frames} frames, ${boxes} boxes)`,
        value: `${fmt(appSamples.inFrame * 100, 0)} % of frames before their display time; bare video + canvas: ${fmt(bare.inFrame * 100, 0)} %`,
        goal: '≤ one frame of lag',
        met: appSamples.inFrame >= 0.95,
      },
      {
        name: 'overlay drawn, after the frame callback began (p50 / p95)',
        value: `${fmt(appSamples.p50, 2)} / ${fmt(appSamples.p95, 2)} ms; bare: ${fmt(bare.p50, 2)} / ${fmt(bare.p95, 2)} ms`,
      },
      {
        name: 'frames the element skipped while playing',
        value: `${appSamples.skipped} of ${appSamples.frames + appSamples.skipped}; bare: ${bare.skipped} of ${bare.frames + bare.skipped}`,
      },
    ]);
    await page.close();
  } finally {
    await browser.close();
    await stopApp(app);
    await rm(dir, { recursive: true, force: true });
  }
}
