/** Clips become training data: their analysed frames as JPEGs, with the frame's corrected boxes. */
import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../electron/core/export/export-library.js';
import type { WritableItem } from '../../../../electron/core/export/export-model.js';
import { frameRanges, withClipFrames } from '../../../../electron/core/review/clip-frames.js';
import { withInterpolatedFrames } from '../../../../electron/core/review/interpolated-frames.js';
import type { DetectionRow, ExportItem } from '../../../../electron/core/store/store-types.js';
import { clipExportItem } from '../../../support/clip-export-item.js';
import { tempDir } from '../../../support/temp-dir.js';

let t: { dir: string; remove: () => Promise<void> };
let file: string;

beforeAll(async () => {
  t = await tempDir('labeldesk-clip-frames-');
  file = join(t.dir, 'ramp clip.mp4');
  // 20 frames at 10 fps whose red level is 10 × the frame number: each frame is recognisable.
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    "color=c=black:size=64x48:rate=10:duration=2,format=rgb24,geq=r='10*N':g=0:b=0",
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-qp',
    '0',
    file,
  ]);
});
afterAll(() => t.remove());

const det = (timeMs: number, label: string): DetectionRow => ({
  id: 1,
  resultId: 1,
  frameIndex: timeMs / 500,
  timeMs,
  label,
  classId: null,
  score: 0.9,
  bbox: { x: 0.25, y: 0.25, w: 0.5, h: 0.5 },
  origin: 'model',
  review: 'accepted',
});

const clipItem = (detections: DetectionRow[]): ExportItem =>
  clipExportItem({ path: file, width: 64, height: 48, fps: 10, durationMs: 2000 }, detections);

describe('withClipFrames', () => {
  it('writes each analysed frame with boxes at its time, and YOLO labels it as an image', async () => {
    const frames = join(t.dir, 'frames');
    const item = clipItem([det(0, 'cat'), det(500, 'dog'), det(500, 'cat'), det(1500, 'cat')]);
    const out = join(t.dir, 'yolo');
    const summary = await exportLibrary({
      items: withClipFrames([item], { dir: frames }),
      format: 'yolo',
      out,
      classes: ['cat', 'dog'],
    });
    expect(summary).toMatchObject({ files: 3, boxes: 4, skipped: 0 });
    const [folder] = await readdir(frames);
    const jpegs = (await readdir(join(frames, folder!))).sort();
    expect(jpegs).toEqual(['frame-000000.jpg', 'frame-000005.jpg', 'frame-000015.jpg']);
    for (const name of jpegs) {
      const n = Number(/(\d+)/.exec(name)![1]);
      const img = sharp(join(frames, folder!, name));
      const meta = await img.metadata();
      expect([meta.width, meta.height]).toEqual([64, 48]);
      const { channels } = await img.stats();
      // The frame at that time, not its neighbour (neighbours differ by 10 levels of red).
      expect(Math.abs(channels[0]!.mean - 10 * n)).toBeLessThan(4);
    }
    const sources = await readFile(join(out, 'sources.csv'), 'utf8');
    expect(sources).toContain(join(frames, folder!, 'frame-000005.jpg'));
    const labels = await readdir(join(out, 'labels'));
    const five = labels.find((l) => l.includes('000005'))!;
    expect((await readFile(join(out, 'labels', five), 'utf8')).trim().split('\n')).toEqual([
      '1 0.5 0.5 0.5 0.5',
      '0 0.5 0.5 0.5 0.5',
    ]);
  });

  it('passes images through and leaves out a clip with no boxes', async () => {
    const image = { ...clipItem([]), media: { ...clipItem([]).media, kind: 'image' as const } };
    const seen: WritableItem[] = [];
    for await (const i of withClipFrames([image, clipItem([])], { dir: join(t.dir, 'none') }))
      seen.push(i);
    expect(seen).toEqual([image]);
  });

  it('writes every frame between two anchors of a track, each with its interpolated box', async () => {
    const frames = join(t.dir, 'interp-frames');
    const at = (timeMs: number, x: number, w: number) => ({
      ...det(timeMs, 'cat'),
      bbox: { x, y: 0.2, w, h: 0.4 },
      trackId: 3,
    });
    // Frames 2 and 8 (10 fps): the box moves right by 0.3 and grows by 0.12 on the way.
    const item = clipItem([at(200, 0.1, 0.2), at(800, 0.4, 0.32), det(1500, 'dog')]);
    const out = join(t.dir, 'yolo-interp');
    const summary = await exportLibrary({
      items: withClipFrames(withInterpolatedFrames([item]), { dir: frames }),
      format: 'yolo',
      out,
      classes: ['cat', 'dog'],
    });
    expect(summary).toMatchObject({ files: 8, boxes: 8, skipped: 0 });
    const [folder] = await readdir(join(frames));
    const jpegs = (await readdir(join(frames, folder!))).sort();
    expect(jpegs.map((n) => Number(/(\d+)/.exec(n)![1]))).toEqual([2, 3, 4, 5, 6, 7, 8, 15]);
    for (const name of jpegs) {
      const n = Number(/(\d+)/.exec(name)![1]);
      const { channels } = await sharp(join(frames, folder!, name)).stats();
      expect(Math.abs(channels[0]!.mean - 10 * n)).toBeLessThan(4);
    }
    const labels = await readdir(join(out, 'labels'));
    const five = labels.find((l) => l.includes('000005'))!;
    // Frame 5 is half way: x 0.25, w 0.26, so the centre is at 0.38.
    const [cls, cx, cy, w, h] = (await readFile(join(out, 'labels', five), 'utf8'))
      .trim()
      .split(' ')
      .map(Number);
    expect([cls, cy, h]).toEqual([0, 0.4, 0.4]);
    expect(cx).toBeCloseTo(0.38, 5);
    expect(w).toBeCloseTo(0.26, 5);
  });

  it('selects runs of frames as ranges', () => {
    expect(frameRanges([1, 2, 3, 7, 9, 10])).toEqual([
      [1, 3],
      [7, 7],
      [9, 10],
    ]);
    expect(frameRanges([])).toEqual([]);
  });
});
