/**
 * Input on the review stage as a person's would arrive (Playwright's mouse and keyboard, CDP), and
 * what the page's probes (review-probes.ts) saw of it. Used on the app's page and on bare pages.
 */
import type { Page } from 'playwright-core';
import type { BenchBox } from './review-library.js';

export const OPTIONS = '[role="listbox"][aria-label="Boxes"] [role="option"]';
/** Time left for the prefetch of the next item (boxes, details, decoded picture) between keys. */
export const BETWEEN_KEYS_MS = 400;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Frame {
  /** The frame's time (requestAnimationFrame's argument), its first callback, its rendering done. */
  t: number;
  start: number;
  end: number;
  painted: boolean;
}
export interface Press {
  ms: number;
  drew: boolean;
}
export interface Move {
  fromEvent: number;
  fromHandler: number;
  drew: boolean;
}

export type Point = { x: number; y: number };

/** Zooms in 10 wheel notches, pans in a loop with the middle button, zooms back out. */
export async function panAndZoom(page: Page, area: Rect) {
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  await page.mouse.move(cx, cy);
  await page.waitForTimeout(200);
  await page.evaluate('window.__bench.startFrames()');
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -100);
  await page.mouse.down({ button: 'middle' });
  for (let k = 1; k <= 120; k++) {
    await page.mouse.move(cx + 250 * Math.sin(k / 12), cy + 150 * Math.sin(k / 8));
  }
  await page.mouse.up({ button: 'middle' });
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 100);
  await page.waitForTimeout(100);
  const frames = await page.evaluate<Frame[]>('window.__bench.stopFrames()');
  const painted = frames.filter((f) => f.painted);
  return { total: painted.map((f) => f.end - f.t), work: painted.map((f) => f.end - f.start) };
}

/** Screen points at the centres of boxes spread over the list, on a fitted picture at `pic`. */
export function pressPoints(boxes: readonly BenchBox[], pic: Rect, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const b = boxes[(i * 977) % boxes.length] ?? boxes[0];
    if (!b) throw new Error('no boxes');
    return {
      x: pic.x + (b.x + b.w / 2) * pic.width,
      y: pic.y + (b.y + b.h / 2) * pic.height,
    };
  });
}

/**
 * Where to drag from: the centre of a box large enough that its centre is no resize handle (the
 * stage's handles take 6 px around each), and inside no smaller box (which a press would pick).
 */
export function dragPoint(boxes: readonly BenchBox[], pic: Rect): Point {
  // The stage widens every box by 3 px when hit-testing; 4 px here.
  const sx = 4 / pic.width;
  const sy = 4 / pic.height;
  const inside = (b: BenchBox, x: number, y: number) =>
    x >= b.x - sx && x <= b.x + b.w + sx && y >= b.y - sy && y <= b.y + b.h + sy;
  const big = boxes.filter((b) => b.w * pic.width > 16 && b.h * pic.height > 16);
  for (const b of big) {
    const x = b.x + b.w / 2;
    const y = b.y + b.h / 2;
    if (boxes.some((o) => o !== b && o.w * o.h <= b.w * b.h && inside(o, x, y))) continue;
    return { x: pic.x + x * pic.width, y: pic.y + y * pic.height };
  }
  throw new Error('no box to drag');
}

/** Presses (and releases) at each point twice, the second round measured; `check` after each. */
export async function presses(
  page: Page,
  points: readonly Point[],
  check?: (p: Point) => Promise<void>,
) {
  for (const p of points) {
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForTimeout(120);
  }
  await page.evaluate('window.__bench.take()');
  // Measured alone: the first round warmed the code up.
  for (const p of points) {
    await page.mouse.move(p.x, p.y);
    await page.waitForTimeout(30);
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForTimeout(120);
    await check?.(p);
  }
  return (await page.evaluate<{ downs: Press[] }>('window.__bench.take()')).downs;
}

/** Selects the box at `from`, then drags it 60 moves of (2, 1) px: 120 px right, 60 down. */
export async function drag(
  page: Page,
  from: Point,
  selected?: () => Promise<void>,
): Promise<Move[]> {
  await page.mouse.click(from.x, from.y);
  await page.waitForTimeout(150);
  await selected?.();
  await page.mouse.down();
  for (let k = 1; k <= 60; k++) await page.mouse.move(from.x + k * 2, from.y + k);
  await page.mouse.up();
  await page.waitForTimeout(200);
  return (await page.evaluate<{ moves: Move[] }>('window.__bench.take()')).moves;
}

/** The selected option's box (normalised x, y, w, h), from the Boxes list. */
export async function selectedBox(page: Page): Promise<number[]> {
  const sel = JSON.stringify(`${OPTIONS}[aria-selected="true"]`);
  const text = await page.evaluate<string>(
    `document.querySelector(${sel})?.getAttribute('data-bbox') ?? ''`,
  );
  return text ? text.split(',').map(Number) : [];
}

/** Polls an expression in the page (a CDP evaluate: the app's CSP forbids string waitForFunction). */
export async function waitUntil(page: Page, expr: string, timeoutMs = 30_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(expr))) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${expr}`);
    await page.waitForTimeout(50);
  }
}

/** Presses J `count` times, each timed from keydown to the item on screen (see PROBES). */
export async function nextItems(
  page: Page,
  items: ReadonlyArray<{ name: string; boxes: number; src: string }>,
  img: string,
  list: string | null,
) {
  const times: number[] = [];
  for (const it of items) {
    await page.waitForTimeout(BETWEEN_KEYS_MS);
    await page.evaluate(`window.__bench.expectItem(${JSON.stringify({ ...it, img, list })})`);
    await page.keyboard.press('j');
    const r = await page.evaluate<{ ms: number }>('window.__bench.shown()');
    if (!Number.isFinite(r.ms)) throw new Error(`${it.name} never showed: ${JSON.stringify(r)}`);
    times.push(r.ms);
  }
  return times;
}
