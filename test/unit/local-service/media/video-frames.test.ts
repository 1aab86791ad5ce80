import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/local-service/http/api-error.js';
import {
  analysedSize,
  decodeVideoFrames,
  type VideoFrame,
} from '../../../../electron/local-service/media/video-frames.js';
import {
  probeVideo,
  type VideoInfo,
} from '../../../../electron/local-service/media/video-probe.js';
import { childProcesses, ffmpegRun, makeTempDir, testClip } from './media-fixtures.js';

let dir: string;
let remove: () => Promise<void>;
let clip: string;
let info: VideoInfo;

beforeAll(async () => {
  ({ dir, remove } = await makeTempDir());
  clip = await testClip(dir, 'mp4');
  info = await probeVideo(clip);
});
afterAll(() => remove());

async function collect(frames: AsyncIterable<VideoFrame>): Promise<VideoFrame[]> {
  const out: VideoFrame[] = [];
  for await (const f of frames) out.push(f);
  return out;
}

function nth(frames: VideoFrame[], i: number): VideoFrame {
  const frame = frames[i];
  if (!frame) throw new Error(`no frame ${i} (got ${frames.length})`);
  return frame;
}

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] as number) - (b[i] as number));
  return sum / a.length;
}

describe('analysedSize', () => {
  it('fits inside maxSide with even sides, and never enlarges', () => {
    expect(analysedSize(640, 360, 320)).toEqual({ width: 320, height: 180 });
    expect(analysedSize(768, 576, 512)).toEqual({ width: 512, height: 384 });
    expect(analysedSize(1000, 333, 512)).toEqual({ width: 512, height: 170 });
    expect(analysedSize(30000, 2, 512)).toEqual({ width: 512, height: 2 });
    expect(analysedSize(641, 361, 1024)).toEqual({ width: 641, height: 361 });
    expect(analysedSize(1000, 1000, 513)).toEqual({ width: 512, height: 512 });
  });
});

describe('decodeVideoFrames', () => {
  it('samples at sampleFps, at the analysed size, with increasing timestamps', async () => {
    const frames = await collect(
      decodeVideoFrames(clip, { sampleFps: 5, maxAnalysedSide: 320, info }),
    );
    expect(frames.length).toBeGreaterThanOrEqual(14);
    expect(frames.length).toBeLessThanOrEqual(16);
    frames.forEach((f, i) => {
      expect(f.index).toBe(i);
      expect(f.timeMs).toBe(i * 200);
      expect(f.rgb).toMatchObject({ width: 320, height: 180 });
      expect(f.rgb.data.length).toBe(320 * 180 * 3);
    });
    // Each frame owns its buffer: the consumer may keep it while later frames arrive.
    expect(meanAbsDiff(nth(frames, 0).rgb.data, nth(frames, 10).rgb.data)).toBeGreaterThan(1);
  });

  it('delivers rotated clips upright, at the displayed size', async () => {
    const rotated = join(dir, 'rotated.mp4');
    await ffmpegRun(['-i', clip, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', rotated]);
    const rInfo = await probeVideo(rotated);
    const frames = await collect(
      decodeVideoFrames(rotated, { sampleFps: 2, maxAnalysedSide: 320, info: rInfo }),
    );
    expect(nth(frames, 0).rgb).toMatchObject({ width: 180, height: 320 });
  });

  it('resumes at startAtFrame with the same indices, times and pixels', async () => {
    const opts = { sampleFps: 5, maxAnalysedSide: 320, info };
    const all = await collect(decodeVideoFrames(clip, opts));
    const resumed = await collect(decodeVideoFrames(clip, { ...opts, startAtFrame: 10 }));
    expect(resumed.map((f) => f.index)).toEqual(all.slice(10).map((f) => f.index));
    expect(nth(resumed, 0).timeMs).toBe(2000);
    expect(meanAbsDiff(nth(resumed, 0).rgb.data, nth(all, 10).rgb.data)).toBeLessThan(2);
  });

  it('kills ffmpeg at once on abort and leaves no process behind', async () => {
    const abort = new AbortController();
    const it = decodeVideoFrames(clip, {
      sampleFps: 25,
      maxAnalysedSide: 320,
      info,
      signal: abort.signal,
    });
    await it.next();
    expect(await childProcesses('ffmpeg')).toHaveLength(1);
    const started = performance.now();
    abort.abort();
    await expect(it.next()).rejects.toMatchObject({ name: 'AbortError' });
    // Generous: the proof is the AbortError and that no ffmpeg is left running.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await childProcesses('ffmpeg')).toEqual([]);
  });

  it('ends a pending read on abort, leaving no ffmpeg behind', async () => {
    const abort = new AbortController();
    // Full size, every frame: ffmpeg is still busy when the abort lands.
    const it = decodeVideoFrames(clip, {
      sampleFps: 25,
      maxAnalysedSide: 640,
      info,
      signal: abort.signal,
    });
    await it.next();
    const pending = (async () => {
      for (;;) if ((await it.next()).done) throw new Error('finished before the abort');
    })();
    setTimeout(() => abort.abort(), 5);
    const started = performance.now();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await childProcesses('ffmpeg')).toEqual([]);
  });

  it('kills ffmpeg when the consumer breaks out early', async () => {
    let seen = 0;
    for await (const _frame of decodeVideoFrames(clip, {
      sampleFps: 25,
      maxAnalysedSide: 320,
      info,
    })) {
      if (++seen === 2) break;
    }
    expect(await childProcesses('ffmpeg')).toEqual([]);
  });

  it('throws the abort without spawning when already aborted', async () => {
    const signal = AbortSignal.abort();
    await expect(
      collect(decodeVideoFrames(clip, { sampleFps: 5, maxAnalysedSide: 320, info, signal })),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('turns an ffmpeg failure into 422 with its last stderr lines', async () => {
    const err: unknown = await collect(
      decodeVideoFrames(join(dir, 'gone.mp4'), { sampleFps: 5, maxAnalysedSide: 320, info }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'undecodable_media' });
    expect((err as Error).message).toMatch(/No such file/);
    expect(await childProcesses('ffmpeg')).toEqual([]);
  });
});
