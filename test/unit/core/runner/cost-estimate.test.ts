import { describe, expect, it } from 'vitest';
import {
  costOf,
  formatOf,
  refuseLocally,
  sampledFrames,
} from '../../../../electron/core/runner/cost-estimate.js';
import type { MediaRecord } from '../../../../electron/core/store/store-types.js';
import { testCatalog } from '../../../support/crash-fake-service.js';

const catalog = testCatalog();
const objects = catalog.solutions[0]!;
const media = (over: Partial<MediaRecord>): MediaRecord => ({
  id: 1,
  folderId: 1,
  path: '/m/a.jpg',
  kind: 'image',
  size: 1000,
  mtimeMs: 0,
  contentHash: 'h',
  width: 10,
  height: 10,
  orientation: 1,
  durationMs: null,
  fps: null,
  status: 'present',
  errorCode: null,
  errorMessage: null,
  ...over,
});

describe('cost estimate', () => {
  it('an image costs the solution image price', () => {
    expect(costOf(media({}), objects, catalog.limits)).toBe(4);
  });

  it('a clip costs ceil(seconds × sampleFps) frames × the frame price, at least one frame', () => {
    const clip = (durationMs: number | null) =>
      costOf(media({ kind: 'video', path: '/m/c.mp4', durationMs }), objects, catalog.limits);
    expect(clip(10_000)).toBe(50 * 2);
    expect(clip(10_001)).toBe(51 * 2);
    expect(clip(199)).toBe(1 * 2);
    expect(clip(0)).toBe(2);
    expect(clip(null)).toBe(2);
    expect(sampledFrames(3_000, 2.5)).toBe(8);
    expect(sampledFrames(600_000, 5)).toBe(3000);
  });

  it('knows formats by extension, case-insensitively', () => {
    expect(formatOf('/a/B.JPG')).toBe('jpeg');
    expect(formatOf('/a/b.tif')).toBe('tiff');
    expect(formatOf('/a/b.m4v')).toBe('mp4');
    expect(formatOf('/a/b')).toBeUndefined();
    expect(formatOf('/a/b.svg')).toBeUndefined();
  });

  it('accepts a file exactly at the limits', () => {
    const { limits } = catalog;
    expect(refuseLocally(media({ size: limits.maxImageBytes }), objects, limits)).toBeUndefined();
    const clip = media({
      kind: 'video',
      path: '/m/c.webm',
      size: limits.maxVideoBytes,
      durationMs: limits.maxVideoSeconds * 1000,
    });
    expect(refuseLocally(clip, objects, limits)).toBeUndefined();
  });

  it('says why a file is refused, in words with the numbers', () => {
    const { limits } = catalog;
    expect(refuseLocally(media({ size: 30 * 1024 * 1024 }), objects, limits)).toEqual({
      code: 'file_too_large',
      message: 'The file is 30.0 MiB; the service takes at most 20 MiB.',
    });
    expect(
      refuseLocally(
        media({ kind: 'video', path: '/m/c.mp4', durationMs: 601_000 }),
        objects,
        limits,
      ),
    ).toEqual({
      code: 'video_too_long',
      message: 'The clip lasts 601 s; the service takes at most 600 s.',
    });
    expect(refuseLocally(media({ path: '/m/a.bmp' }), objects, limits)?.message).toMatch(
      /jpeg, png, webp; this file is bmp/,
    );
  });
});
