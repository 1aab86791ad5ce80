/** MOT of a clip too long to hold: its lines go to disk as they are made, and a failure leaves nothing. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import type { WritableItem } from '../../../../electron/core/export/export-model.js';
import { interpolateItem } from '../../../../electron/core/review/interpolated-frames.js';
import type { DetectionRow } from '../../../../electron/core/store/store-types.js';
import { clipExportItem } from '../../../support/clip-export-item.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  t = await tempDir('labeldesk-mot-stream-');
});
afterAll(() => t.remove());

const FRAMES = 30_000;
const anchor = (frame: number, trackId: number, x: number): DetectionRow =>
  Object.assign(
    {
      id: frame + 1,
      resultId: 1,
      frameIndex: frame / 25,
      timeMs: frame * 40,
      label: trackId === 1 ? 'person' : 'car',
      classId: null,
      score: 0.5,
      bbox: { x, y: 0.25 * trackId, w: 0.1, h: 0.2 },
      origin: 'model' as const,
      review: 'pending' as const,
    },
    { trackId },
  );

/** Two tracks across 20 minutes at 25 fps, anchored once a second: 60,000 lines interpolated. */
const longClip = (): WritableItem =>
  interpolateItem(
    clipExportItem(
      { path: '/clips/long.mp4', width: 640, height: 360, fps: 25, durationMs: FRAMES * 40 },
      Array.from({ length: FRAMES / 25 }, (_, s) => [
        anchor(s * 25, 1, (s % 50) / 60),
        anchor(s * 25, 2, 0.8 - (s % 50) / 60),
      ]).flat(),
    ),
  );

/** The long clip, calling `hook` as its box number `at` is read; `read()`: boxes read so far. */
function longClipCalling(at: number, hook: () => void) {
  const clip = longClip();
  const rows = clip.detections;
  let n = 0;
  const detections = {
    frameOrdered: true as const,
    *[Symbol.iterator]() {
      for (const row of rows) {
        if (++n === at) hook();
        yield row;
      }
    },
  };
  return { clip: { ...clip, detections }, read: () => n };
}

describe('MOT of a streamed clip', () => {
  it('writes every line in frame order, each track once per frame', async () => {
    const out = join(t.dir, 'mot');
    const summary = await exportLibrary({ items: [longClip()], format: 'mot', out });
    const expected = 2 * (FRAMES - 25 + 1);
    expect(summary).toMatchObject({ files: 1, boxes: expected });
    const lines = (await readFile(join(out, 'long.txt'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(expected);
    const frameTrack = lines.map((l) => l.split(',').slice(0, 2).map(Number));
    expect(frameTrack.slice(0, 4)).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
      [2, 2],
    ]);
    expect(frameTrack.at(-1)).toEqual([FRAMES - 25 + 1, 2]);
    expect(frameTrack.every(([f], i) => i === 0 || f! >= frameTrack[i - 1]![0]!)).toBe(true);
    expect((await readFile(join(out, 'classes.txt'), 'utf8')).split('\n')).toEqual([
      'person',
      'car',
      '',
    ]);
  });

  it('a failure half way through a clip removes the partial export', async () => {
    const out = join(t.dir, 'failed');
    const failing = longClipCalling(40_000, () => {
      throw new Error('disk gone');
    });
    await expect(exportLibrary({ items: [failing.clip], format: 'mot', out })).rejects.toThrow(
      'disk gone',
    );
    expect(await readdir(t.dir)).not.toContain('failed');
    expect((await readdir(t.dir)).filter((n) => n.includes('.partial'))).toEqual([]);
  });

  it('quitting stops a clip half way through its lines and leaves nothing', async () => {
    const out = join(t.dir, 'quit');
    const quit = new AbortController();
    const quitting = longClipCalling(30_000, () => quit.abort());
    const done = exportLibrary({ items: [quitting.clip], format: 'mot', out, signal: quit.signal });
    await expect(done).rejects.toThrow(/abort/i);
    expect(quitting.read()).toBeLessThan(32_000);
    expect((await readdir(t.dir)).filter((name) => name.includes('quit'))).toEqual([]);
  });
});
