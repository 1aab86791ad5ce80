import { describe, expect, it } from 'vitest';
import { HitGrid } from '../../../renderer/src/features/review/hit-grid.js';
import {
  boxBetween,
  handleAt,
  isFitted,
  resizeBox,
  visiblePictureRect,
  zoomByKey,
  zoomByWheel,
} from '../../../renderer/src/features/review/stage-view.js';
import { fitToWindow, screenToNormalised } from '../../../electron/shared/geometry/viewport.js';
import { lcgRandom } from '../../support/seeded-random.js';

const box = (key: string, x: number, y: number, w: number, h: number) => ({
  key,
  bbox: { x, y, w, h },
});

/** A deterministic scatter of small boxes. */
function scatter(n: number) {
  const next = lcgRandom(7);
  const rnd = () => next() * 0.95;
  return Array.from({ length: n }, (_, i) => box(`b${i}`, rnd(), rnd(), 0.01 + rnd() / 40, 0.02));
}

/** What the grid must answer, by looking at every box. */
function linearAt(boxes: ReturnType<typeof scatter>, x: number, y: number) {
  let best: (typeof boxes)[number] | null = null;
  for (const b of boxes) {
    const { bbox } = b;
    if (x < bbox.x || x > bbox.x + bbox.w || y < bbox.y || y > bbox.y + bbox.h) continue;
    if (!best || bbox.w * bbox.h < best.bbox.w * best.bbox.h) best = b;
  }
  return best;
}

describe('hit grid', () => {
  it('finds the same box as a scan of every box, on 5,000 boxes', () => {
    const boxes = scatter(5000);
    const grid = new HitGrid(boxes);
    for (let i = 0; i < 2000; i++) {
      const x = (i * 0.6180339) % 1;
      const y = (i * 0.7548776) % 1;
      expect(grid.at(x, y)?.key ?? null).toBe(linearAt(boxes, x, y)?.key ?? null);
    }
  });

  it('prefers the smallest box under the pointer, so one inside another stays reachable', () => {
    const grid = new HitGrid([box('big', 0.1, 0.1, 0.8, 0.8), box('small', 0.4, 0.4, 0.1, 0.1)]);
    expect(grid.at(0.45, 0.45)?.key).toBe('small');
    expect(grid.at(0.2, 0.2)?.key).toBe('big');
    expect(grid.at(0.95, 0.95)).toBeNull();
  });

  it('widens boxes by the slop, and lists each box overlapping a rectangle once', () => {
    const grid = new HitGrid([box('a', 0.5, 0.5, 0.2, 0.2), box('b', 0, 0, 1, 0.05)], 8);
    expect(grid.at(0.49, 0.6)).toBeNull();
    expect(grid.at(0.49, 0.6, 0.02)?.key).toBe('a');
    const keys = grid.within(0, 0, 1, 1).map((b) => b.key);
    expect(keys.sort()).toEqual(['a', 'b']);
    expect(grid.within(0.8, 0.8, 0.9, 0.9)).toEqual([]);
  });
});

describe('stage view', () => {
  const picture = { width: 1000, height: 500 };
  const window = { width: 800, height: 600 };

  it('zooms around the point under the cursor (wheel and keys)', () => {
    const fit = fitToWindow(picture, window);
    const at = { x: 300, y: 250 };
    const before = screenToNormalised(fit, picture, at);
    for (const v of [
      zoomByWheel(fit, -100, 0, at),
      zoomByWheel(fit, 3, 1, at),
      zoomByKey(fit, true, at, window),
    ]) {
      const after = screenToNormalised(v, picture, at);
      expect(after.x).toBeCloseTo(before.x, 9);
      expect(after.y).toBeCloseTo(before.y, 9);
    }
    expect(zoomByWheel(fit, -100, 0, at).scale).toBeGreaterThan(fit.scale);
    expect(zoomByWheel(fit, 100, 0, at).scale).toBeLessThan(fit.scale);
    // No cursor over the stage: keys zoom around the window's centre.
    const centre = { x: 400, y: 300 };
    const c0 = screenToNormalised(fit, picture, centre);
    const c1 = screenToNormalised(zoomByKey(fit, false, null, window), picture, centre);
    expect(c1.x).toBeCloseTo(c0.x, 9);
  });

  it('fitted, the stage element is exactly the picture; zoomed in, the part in the window', () => {
    const fit = fitToWindow(picture, window);
    expect(isFitted(fit, picture, window)).toBe(true);
    const r = visiblePictureRect(fit, picture, window);
    expect(r.w / r.h).toBeCloseTo(2, 9);
    expect(r.w).toBeCloseTo(800, 6);
    const zoomed = zoomByKey(fit, true, { x: 400, y: 300 }, window);
    expect(isFitted(zoomed, picture, window)).toBe(false);
    const z = visiblePictureRect(zoomed, picture, window);
    expect(z.x).toBe(0);
    expect(z.w).toBe(800);
  });

  it('resizes by any of the 8 handles, flips past the other side, and stays in the picture', () => {
    const b = { x: 0.2, y: 0.2, w: 0.4, h: 0.4 };
    const se = resizeBox(b, 'se', 0.1, 0.1);
    expect([se.x, se.y, se.w, se.h].map((v) => v.toFixed(9))).toEqual(
      ['0.2', '0.2', '0.5', '0.5'].map((v) => Number(v).toFixed(9)),
    );
    const n = resizeBox(b, 'n', 0.5, 0.1);
    expect(n.x).toBeCloseTo(0.2, 9);
    expect(n.w).toBeCloseTo(0.4, 9);
    expect(resizeBox(b, 'n', 0, 0.1).h).toBeCloseTo(0.3, 9);
    const flipped = resizeBox(b, 'w', 0.6, 0);
    expect(flipped.x).toBeCloseTo(0.6, 9);
    expect(flipped.w).toBeCloseTo(0.2, 9);
    const out = resizeBox(b, 'se', 5, 5);
    expect(out.x + out.w).toBeLessThanOrEqual(1);
    expect(out.y + out.h).toBeLessThanOrEqual(1);
    const drawn = boxBetween({ x: 0.5, y: 0.5 }, { x: 0.1, y: 0.2 });
    expect(drawn?.x).toBeCloseTo(0.1, 9);
    expect(drawn?.y).toBeCloseTo(0.2, 9);
    expect(drawn?.w).toBeCloseTo(0.4, 9);
    const r = { x: 100, y: 100, w: 200, h: 100 };
    expect(handleAt(r, { x: 302, y: 199 }, 5)).toBe('se');
    expect(handleAt(r, { x: 200, y: 97 }, 5)).toBe('n');
    expect(handleAt(r, { x: 200, y: 150 }, 5)).toBeNull();
  });
});
