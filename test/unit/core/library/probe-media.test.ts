import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../../../electron/core/library/probe-media.js';
import { resolveTool } from '../../../../electron/core/library/tool-paths.js';
import { clip } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('labeldesk-probe-')));
afterAll(() => remove());

describe('probeMedia', () => {
  it('reads size, EXIF orientation and format of an image without decoding it', async () => {
    const file = path.join(dir, 'rotated.jpg');
    await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toFile(file);
    expect(await probeMedia(file, 'image')).toEqual({
      ok: true,
      info: {
        width: 40,
        height: 20,
        orientation: 6,
        format: 'jpeg',
        durationMs: null,
        fps: null,
        rotation: 0,
      },
    });
  });

  it('returns undecodable_media for a text file named .jpg', async () => {
    const file = path.join(dir, 'fake.jpg');
    await writeFile(file, 'not an image');
    expect(await probeMedia(file, 'image')).toMatchObject({ ok: false, code: 'undecodable_media' });
  });

  it('reads duration, fps and size of a real clip', async () => {
    const file = await clip(dir, 'testsrc.mp4', 2, '320x240', 10);
    const r = await probeMedia(file, 'video');
    expect(r).toMatchObject({
      ok: true,
      info: { width: 320, height: 240, fps: 10, durationMs: 2000, rotation: 0, orientation: 1 },
    });
  });

  it('reports a rotated clip as its coded size plus a rotation', async () => {
    const src = await clip(dir, 'src.mp4', 1, '320x240', 10);
    const file = path.join(dir, 'portrait.mp4');
    const ffmpeg = await resolveTool('ffmpeg');
    const { execFileSync } = await import('node:child_process');
    // A phone-style portrait clip: display matrix rotation -90 (counter-clockwise), i.e. a
    // player turns it 90° clockwise. ffmpeg 5.1's mov muxer writes that for the tag rotate=270.
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      '-i',
      src,
      '-c',
      'copy',
      '-metadata:s:v:0',
      'rotate=270',
      file,
    ]);
    expect(await probeMedia(file, 'video')).toMatchObject({
      ok: true,
      info: { width: 320, height: 240, rotation: 90, orientation: 6 },
    });
  });

  it('gives per-file errors for a broken clip and a missing file', async () => {
    const bad = path.join(dir, 'broken.mp4');
    await writeFile(bad, 'garbage garbage garbage');
    const r = await probeMedia(bad, 'video');
    expect(r).toMatchObject({ ok: false, code: 'undecodable_media' });
    expect(r.ok ? '' : r.message).toMatch(/^The clip cannot be read/);
    expect(await probeMedia(path.join(dir, 'gone.mp4'), 'video')).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('falls back past a configured ffprobe that does not run', async () => {
    await expect(resolveTool('ffprobe', '/nonexistent/ffprobe')).resolves.not.toBe(
      '/nonexistent/ffprobe',
    );
  });
});
