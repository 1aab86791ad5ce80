import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/local-service/http/api-error.js';
import {
  containerOf,
  probeVideo,
  VIDEO_FORMATS,
} from '../../../../electron/local-service/media/video-probe.js';
import { ffmpegRun, makeTempDir, noisyImage, testClip } from './media-fixtures.js';

let dir: string;
let remove: () => Promise<void>;
const clips: Record<string, string> = {};

beforeAll(async () => {
  ({ dir, remove } = await makeTempDir());
  await Promise.all(
    VIDEO_FORMATS.map(async (ext) => {
      clips[ext] = await testClip(dir, ext);
    }),
  );
  clips.rotated = join(dir, 'rotated.mp4');
  await ffmpegRun([
    '-i',
    clips.mp4 as string,
    '-c',
    'copy',
    '-metadata:s:v:0',
    'rotate=90',
    clips.rotated,
  ]);
  // A live WebM has no duration in its header, like MediaRecorder output.
  clips.streamed = join(dir, 'streamed.webm');
  await ffmpegRun([
    '-i',
    clips.webm as string,
    '-c',
    'copy',
    '-f',
    'webm',
    '-live',
    '1',
    clips.streamed,
  ]);
});
afterAll(() => remove());

async function refusal(file: string) {
  const err: unknown = await probeVideo(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('probeVideo', () => {
  it.each(VIDEO_FORMATS)('reads a %s clip', async (ext) => {
    const info = await probeVideo(clips[ext] as string);
    expect(info).toMatchObject({ container: ext, width: 640, height: 360, fps: 25 });
    expect(info.durationMs).toBeGreaterThanOrEqual(2900);
    expect(info.durationMs).toBeLessThanOrEqual(3100);
    expect(info.codec).toMatch(/^(h264|vp8|mpeg4)$/);
    if (info.frameCount !== undefined) expect(info.frameCount).toBe(75);
  });

  it('reports the displayed size of a clip with rotation metadata', async () => {
    expect(await probeVideo(clips.rotated as string)).toMatchObject({ width: 360, height: 640 });
  });

  it('counts frames when the container carries no duration', async () => {
    const info = await probeVideo(clips.streamed as string);
    expect(info.container).toBe('webm');
    expect(info.durationMs).toBeGreaterThan(2800);
    expect(info.durationMs).toBeLessThan(3200);
  });

  it('refuses a container it recognises but does not accept with 415', async () => {
    const png = join(dir, 'still.mp4');
    await writeFile(png, await noisyImage(32, 32).png().toBuffer());
    const err = await refusal(png);
    expect(err).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(err.message).toContain('mp4, webm, mov, avi, mkv');
  });

  it('refuses a playlist disguised as a clip without following it', async () => {
    const playlist = join(dir, 'playlist.mp4');
    await writeFile(
      playlist,
      `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\n${clips.mp4}\n#EXT-X-ENDLIST\n`,
    );
    expect(await refusal(playlist)).toMatchObject({ status: 415 });
  });

  it('refuses text, random bytes, empty and truncated files with 422', async () => {
    const files = {
      'text.mp4': Buffer.from('hello, this is not a video\n'),
      'random.avi': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)),
      'empty.webm': Buffer.alloc(0),
    };
    for (const [name, data] of Object.entries(files)) await writeFile(join(dir, name), data);
    // The moov atom is at the end of a plain ffmpeg mp4: cut it off.
    const truncated = join(dir, 'truncated.mp4');
    await writeFile(truncated, (await readFile(clips.mp4 as string)).subarray(0, 2000));
    for (const name of [...Object.keys(files), 'truncated.mp4']) {
      expect(await refusal(join(dir, name))).toMatchObject({
        status: 422,
        code: 'undecodable_media',
      });
    }
  });
});

describe('containerOf', () => {
  it('tells mp4 from mov by brand and webm from mkv by codecs', () => {
    const mov = 'mov,mp4,m4a,3gp,3g2,mj2';
    expect(containerOf(mov, 'qt  ', [])).toBe('mov');
    expect(containerOf(mov, 'isom', [])).toBe('mp4');
    expect(
      containerOf('matroska,webm', undefined, [{ codec_name: 'vp9' }, { codec_name: 'opus' }]),
    ).toBe('webm');
    expect(containerOf('matroska,webm', undefined, [{ codec_name: 'h264' }])).toBe('mkv');
    expect(containerOf('mpegts', undefined, [])).toBeUndefined();
  });
});
