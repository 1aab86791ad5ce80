/**
 * The bare baselines of the `models` and `video` sections: the same detection engine the service
 * uses (worker threads, same worker count), called in-process with no HTTP, no multipart, no
 * ledger and no job store, on inputs decoded once up front (images) or straight from a raw
 * ffmpeg pipe (clips). The service's figure divided by this one is the service's own cost.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { resolveTool } from '../electron/core/library/tool-paths.js';
import type { DetectionEngine, RgbImage } from '../electron/local-service/engine/engine-types.js';
import { createModelsEngine } from '../electron/local-service/engine/models-engine.js';
import { SOLUTIONS } from '../electron/local-service/solutions.js';

/** As the service chooses it (service.ts), so both sides run the same number of workers. */
export const WORKERS = Math.max(1, Math.min(availableParallelism(), 4));

export async function startBareEngine(): Promise<DetectionEngine> {
  const engine = createModelsEngine({ workers: WORKERS, solutions: SOLUTIONS });
  await engine.whenReady();
  return engine;
}

/** `count` detections of one image with `concurrency` in flight; returns images per second. */
export async function bareImages(
  engine: DetectionEngine,
  solution: string,
  image: RgbImage,
  count: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        // detect() transfers the pixels to its worker, so each call gets its own copy.
        await engine.detect(solution, { ...image, data: image.data.slice() });
      }
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

export interface RawClipOptions {
  file: string;
  sampleFps: number;
  width: number;
  height: number;
}

/**
 * Raw ffmpeg: the clip sampled and scaled as the service does it, as rgb24 frames on a pipe.
 * `onFrame` may return a promise: the pipe is paused while `inFlight` frames are pending, the
 * way the service keeps a bounded number of frames in flight.
 */
export async function rawFrames(
  options: RawClipOptions,
  onFrame: (frame: RgbImage) => Promise<unknown> | undefined,
  inFlight = 1,
): Promise<{ frames: number; seconds: number }> {
  const { file, sampleFps, width, height } = options;
  const ffmpeg = await resolveTool('ffmpeg');
  const frameBytes = width * height * 3;
  const t0 = performance.now();
  const child = spawn(
    ffmpeg,
    [
      '-nostdin',
      '-v',
      'error',
      '-i',
      file,
      '-map',
      '0:V:0',
      '-vf',
      `fps=${sampleFps},scale=${width}:${height}:flags=area`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  const pending = new Set<Promise<unknown>>();
  let frames = 0;
  let buffered = Buffer.alloc(0);
  for await (const chunk of child.stdout) {
    buffered = Buffer.concat([buffered, chunk as Buffer]);
    while (buffered.length >= frameBytes) {
      const data = new Uint8Array(buffered.subarray(0, frameBytes));
      buffered = buffered.subarray(frameBytes);
      frames++;
      const work = onFrame({ data, width, height });
      if (work) {
        const tracked = work.finally(() => pending.delete(tracked));
        pending.add(tracked);
        while (pending.size >= inFlight) await Promise.race(pending);
      }
    }
  }
  await Promise.all(pending);
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`ffmpeg exited ${code}`);
  return { frames, seconds: (performance.now() - t0) / 1000 };
}
