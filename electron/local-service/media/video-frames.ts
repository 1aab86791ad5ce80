/**
 * Streams a clip's sampled frames as packed RGB from one ffmpeg process.
 *
 * ffmpeg does the sampling (fps filter), the rotation (autorotate) and the scaling, and writes
 * fixed-size rgb24 frames to stdout; we cut that stream into frames. Reading is pulled by the
 * consumer, so a slow detector back-pressures ffmpeg through the pipe instead of buffering the
 * clip in memory. The process is killed on abort, on early `break`, and on error, and always
 * reaped before the iterator settles.
 */
import { spawn } from 'node:child_process';
import type { RgbImage } from '../engine/engine-types.js';
import { undecodableMedia } from '../http/api-error.js';
import { analysedSize } from './analysed-size.js';
import { resolveFfmpeg } from './ffmpeg-paths.js';
import { DEMUXER_WHITELIST, inputUrl, type VideoInfo } from './video-probe.js';

export { analysedSize } from './analysed-size.js';

export interface VideoFrame {
  /** 0-based index among sampled frames (not source frames). */
  index: number;
  /** Presentation time of the sampled frame. */
  timeMs: number;
  rgb: RgbImage;
}

export interface DecodeVideoOptions {
  sampleFps: number;
  maxAnalysedSide: number;
  info: VideoInfo;
  signal?: AbortSignal;
  /** Sampled frames already analysed by an earlier run of the same job. */
  startAtFrame?: number;
  ffmpegPath?: string;
}

const STDERR_TAIL_CHARS = 2000;

export async function* decodeVideoFrames(
  file: string,
  options: DecodeVideoOptions,
): AsyncGenerator<VideoFrame, void, undefined> {
  const { sampleFps, info, signal } = options;
  if (!(sampleFps > 0)) throw new RangeError(`sampleFps must be positive, got ${sampleFps}`);
  const start = Math.max(0, Math.floor(options.startAtFrame ?? 0));
  signal?.throwIfAborted();
  const ffmpeg = await resolveFfmpeg(options.ffmpegPath);
  signal?.throwIfAborted();

  const { width, height } = analysedSize(info.width, info.height, options.maxAnalysedSide);
  const frameBytes = width * height * 3;
  const args = [
    '-nostdin',
    '-v', 'error',
    '-format_whitelist', DEMUXER_WHITELIST,
    '-protocol_whitelist', 'file',
    // Before -i: a keyframe seek plus a short decode instead of decoding everything skipped.
    ...(start > 0 ? ['-ss', (start / sampleFps).toFixed(6)] : []),
    '-i', inputUrl(file),
    '-map', '0:V:0', // the first real video track, never cover art
    // scale always runs so every frame is exactly width×height, whatever the stream claims.
    '-vf', `fps=${sampleFps},scale=${width}:${height}:flags=area`,
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
  ]; // prettier-ignore

  const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    stderrTail = (stderrTail + s).slice(-STDERR_TAIL_CHARS);
  });
  let spawnError: Error | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      resolve(null);
    });
    child.once('close', (code) => resolve(code));
  });
  const onAbort = () => {
    child.kill('SIGKILL');
    child.stdout.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  let index = start;
  try {
    let frame = Buffer.allocUnsafe(frameBytes);
    let filled = 0;
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        // Copy each pipe chunk once into the frame being filled: no growing concatenation.
        for (let offset = 0; offset < chunk.length;) {
          const n = Math.min(frameBytes - filled, chunk.length - offset);
          chunk.copy(frame, filled, offset, offset + n);
          filled += n;
          offset += n;
          if (filled < frameBytes) continue;
          const timeMs = Math.round((index * 1000) / sampleFps);
          yield { index, timeMs, rgb: { data: frame, width, height } };
          signal?.throwIfAborted();
          index += 1;
          frame = Buffer.allocUnsafe(frameBytes);
          filled = 0;
        }
      }
    } catch (err) {
      if (!signal?.aborted) throw err; // stdout destroyed by onAbort: report the abort below
    }
    signal?.throwIfAborted();
    const code = await exited;
    if (spawnError) throw new Error(`Cannot run ffmpeg at ${ffmpeg}: ${spawnError.message}`);
    if (code !== 0) {
      const detail = stderrTail.trim().split('\n').slice(-3).join(' / ');
      throw undecodableMedia(`The video cannot be decoded (ffmpeg exit ${code}): ${detail}`);
    }
    if (index === 0) throw undecodableMedia('The video has no decodable frames.');
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child.stdout.destroy();
    await exited; // reap the process: no zombie outlives the iterator
  }
}
