import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  clampBox,
  fromPixels,
  iou,
  toPixels,
  translateWithin,
} from '../../../../electron/shared/geometry/box-math.js';
import {
  boxDisplayedToStored,
  boxStoredToDisplayed,
  displaySize,
  type Orientation,
} from '../../../../electron/shared/geometry/orientation.js';
import {
  fitToWindow,
  normalisedToScreen,
  screenToNormalised,
  zoomAt,
} from '../../../../electron/shared/geometry/viewport.js';

const ORIENTATIONS: Orientation[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** The displayed pixel a marked stored pixel lands on, as sharp (libvips) orients the image. */
async function whereSharpPutsIt(o: Orientation) {
  const [w, h] = [8, 6];
  const raw = Buffer.alloc(w * h * 3);
  raw.set([255, 255, 255], (1 * w + 2) * 3); // stored pixel (2, 1)
  const jpegless = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .withMetadata({ orientation: o })
    .toBuffer();
  const { data, info } = await sharp(jpegless).rotate().raw().toBuffer({ resolveWithObject: true });
  let best = { x: -1, y: -1, v: -1 };
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const v = data[(y * info.width + x) * info.channels] ?? 0;
      if (v > best.v) best = { x, y, v };
    }
  return { x: best.x, y: best.y, width: info.width, height: info.height };
}

describe('EXIF orientations', () => {
  it.each(ORIENTATIONS)('orientation %i maps a stored box where a viewer shows it', async (o) => {
    const seen = await whereSharpPutsIt(o);
    expect(displaySize({ width: 8, height: 6 }, o)).toEqual({
      width: seen.width,
      height: seen.height,
    });
    // The stored pixel (2, 1) as a normalised box of one pixel.
    const stored = { x: 2 / 8, y: 1 / 6, w: 1 / 8, h: 1 / 6 };
    const shown = boxStoredToDisplayed(stored, o);
    expect(shown.x * seen.width).toBeCloseTo(seen.x, 6);
    expect(shown.y * seen.height).toBeCloseTo(seen.y, 6);
    expect(shown.w * seen.width).toBeCloseTo(1, 6);
    const back = boxDisplayedToStored(shown, o);
    for (const k of ['x', 'y', 'w', 'h'] as const) expect(back[k]).toBeCloseTo(stored[k], 9);
  });
});

describe('boxes', () => {
  it('normalised ↔ pixel round-trips', () => {
    const size = { width: 640, height: 480 };
    const px = toPixels({ x: 0.25, y: 0.5, w: 0.5, h: 0.25 }, size);
    expect(px).toEqual({ x: 160, y: 240, w: 320, h: 120 });
    expect(fromPixels(px, size)).toEqual({ x: 0.25, y: 0.5, w: 0.5, h: 0.25 });
  });

  it('clamps at the edges, keeps a minimum size, refuses non-finite boxes', () => {
    expect(clampBox({ x: -0.2, y: 0.9, w: 0.5, h: 0.3 })).toEqual({
      x: 0,
      y: 0.9,
      w: 0.3,
      h: expect.closeTo(0.1, 9),
    });
    expect(clampBox({ x: 0.5, y: 0.5, w: -0.2, h: 0.1 })).toMatchObject({ x: 0.3, y: 0.5 });
    expect(clampBox({ x: 1.5, y: 0, w: 0.1, h: 0.1 })!.x).toBeLessThan(1);
    expect(clampBox({ x: Number.NaN, y: 0, w: 1, h: 1 })).toBeNull();
    expect(translateWithin({ x: 0.8, y: 0.1, w: 0.3, h: 0.2 }, 0.5, -0.5)).toEqual({
      x: 0.7,
      y: 0,
      w: 0.3,
      h: 0.2,
    });
  });

  it('IoU', () => {
    const a = { x: 0, y: 0, w: 0.2, h: 0.2 };
    expect(iou(a, a)).toBe(1);
    expect(iou(a, { x: 0.1, y: 0, w: 0.2, h: 0.2 })).toBeCloseTo(1 / 3, 9);
    expect(iou(a, { x: 0.5, y: 0.5, w: 0.1, h: 0.1 })).toBe(0);
  });
});

describe('viewport', () => {
  const picture = { width: 400, height: 200 };
  it('fits the picture to the window, centred, no margin inside the picture', () => {
    const v = fitToWindow(picture, { width: 800, height: 800 });
    expect(v).toEqual({ scale: 2, offsetX: 0, offsetY: 200 });
    expect(normalisedToScreen(v, picture, { x: 1, y: 1 })).toEqual({ x: 800, y: 600 });
  });

  it('zooms around the cursor: the picture point under it stays under it', () => {
    const v = fitToWindow(picture, { width: 800, height: 800 });
    const cursor = { x: 300, y: 350 };
    const before = screenToNormalised(v, picture, cursor);
    const z = zoomAt(v, 3, cursor);
    expect(z.scale).toBe(6);
    const after = screenToNormalised(z, picture, cursor);
    expect(after.x).toBeCloseTo(before.x, 12);
    expect(after.y).toBeCloseTo(before.y, 12);
    expect(zoomAt(z, 1e9, cursor).scale).toBe(32);
  });
});
