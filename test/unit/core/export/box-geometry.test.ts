import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  displayedSize,
  mediaDisplayedSize,
  toPixelBox,
  toYoloBox,
} from '../../../../electron/core/export/box-geometry.js';

describe('box geometry', () => {
  it('swaps width and height for orientations 5–8, as sharp does when it orients', async () => {
    for (let orientation = 1; orientation <= 8; orientation++) {
      const file = await sharp({
        create: { width: 30, height: 20, channels: 3, background: '#000' },
      })
        .jpeg()
        .withMetadata({ orientation })
        .toBuffer();
      const m = await sharp(file).metadata();
      const shown = await sharp(file).autoOrient().toBuffer({ resolveWithObject: true });
      expect(displayedSize(m.width, m.height, m.orientation ?? 1)).toEqual({
        width: shown.info.width,
        height: shown.info.height,
      });
    }
  });

  it('prefers the file size and falls back to the (already oriented) analysed size', () => {
    const analysed = { analysedWidth: 50, analysedHeight: 100 };
    expect(mediaDisplayedSize({ width: 400, height: 200, orientation: 6 }, analysed)).toEqual({
      width: 200,
      height: 400,
    });
    expect(mediaDisplayedSize({ width: null, height: null, orientation: 6 }, analysed)).toEqual({
      width: 50,
      height: 100,
    });
    expect(mediaDisplayedSize({ width: 0, height: 10, orientation: 1 })).toBeNull();
  });

  it('rounds corners, clamps to the image and drops boxes with nothing inside', () => {
    const size = { width: 200, height: 300 };
    expect(toPixelBox({ x: 0.1, y: 0.2, w: 0.5, h: 0.25 }, size)).toEqual({
      xmin: 20,
      ymin: 60,
      xmax: 120,
      ymax: 135,
      width: 100,
      height: 75,
    });
    expect(toPixelBox({ x: -0.1, y: 0.9, w: 0.3, h: 0.5 }, size)).toMatchObject({
      xmin: 0,
      ymin: 270,
      xmax: 40,
      ymax: 300,
    });
    expect(
      toPixelBox({ x: 1 / 3, y: 0, w: 1 / 3, h: 1 }, { width: 100, height: 10 }),
    ).toMatchObject({
      xmin: 33.33,
      xmax: 66.67,
      width: 33.34,
    });
    expect(
      toPixelBox({ x: 1 / 3, y: 0, w: 1 / 3, h: 1 }, { width: 100, height: 10 }, 0),
    ).toMatchObject({
      xmin: 33,
      xmax: 67,
    });
    expect(toPixelBox({ x: 1.2, y: 0, w: 0.1, h: 1 }, size)).toBeNull();
    expect(toPixelBox({ x: Number.NaN, y: 0, w: 0.1, h: 1 }, size)).toBeNull();
  });

  it('gives YOLO centre boxes inside 0–1', () => {
    expect(toYoloBox({ x: 0.6, y: 0.7, w: 0.5, h: 0.2 })).toEqual({
      cx: 0.8,
      cy: 0.8,
      w: 0.4,
      h: 0.2,
    });
    expect(toYoloBox({ x: 0, y: 0, w: 0, h: 1 })).toBeNull();
  });
});
