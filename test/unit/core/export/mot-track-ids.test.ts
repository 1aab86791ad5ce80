/** MOT ids are 1 or more: a box in no track is written as a track of its own, never as -1. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import { interpolateItem } from '../../../../electron/core/review/interpolated-frames.js';
import type { DetectionRow } from '../../../../electron/core/store/store-types.js';
import { clipExportItem } from '../../../support/clip-export-item.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  t = await tempDir('labeldesk-mot-ids-');
});
afterAll(() => t.remove());

/** A box on analysed frame `sample` (one a second at 5 fps), in track `trackId` or in none. */
const box = (sample: number, x: number, trackId?: number): DetectionRow =>
  Object.assign(
    {
      id: sample * 10 + Math.round(x * 10),
      resultId: 1,
      frameIndex: sample,
      timeMs: sample * 1000,
      label: 'person',
      classId: null,
      score: 0.8,
      bbox: { x, y: 0.2, w: 0.1, h: 0.2 },
      origin: 'model' as const,
      review: 'pending' as const,
    },
    trackId === undefined ? {} : { trackId },
  );

const clip = () =>
  clipExportItem({ path: '/clips/walk.mp4', width: 640, height: 480, fps: 5, durationMs: 4000 }, [
    box(0, 0.1, 1),
    box(0, 0.5),
    box(1, 0.12, 1),
    box(1, 0.7, 2),
    box(2, 0.14, 1),
    box(2, 0.72, 2),
    box(3, 0.3),
  ]);

const idsOf = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => Number(l.split(',')[1]));

describe('MOT track ids', () => {
  it('numbers the boxes in no track after the clip’s tracks, one track each', async () => {
    const out = join(t.dir, 'sampled');
    await exportLibrary({ items: [clip()], format: 'mot', out });
    expect(await idsOf(join(out, 'walk.txt'))).toEqual([1, 3, 1, 2, 1, 2, 4]);
  });

  it('does so in the interpolated export too', async () => {
    const out = join(t.dir, 'interpolated');
    await exportLibrary({ items: [interpolateItem(clip())], format: 'mot', out });
    const ids = await idsOf(join(out, 'walk.txt'));
    expect(ids.every((id) => id >= 1)).toBe(true);
    expect(new Set(ids)).toEqual(new Set([1, 2, 3, 4]));
    // Tracks 1 and 2 are drawn on every frame between their boxes; the two lone boxes once each.
    expect(ids.filter((id) => id === 3)).toHaveLength(1);
    expect(ids.filter((id) => id === 4)).toHaveLength(1);
  });
});
