/**
 * Whether Chromium can play a clip as it is, and if not, how to make it playable. Debian's
 * Chromium plays H.264, VP8, VP9 and AV1 in MP4/MOV/WebM/MKV; it cannot open AVI at all, whatever
 * the codec, and shows HEVC with no picture. H.264 in AVI only needs a new container.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { resolveTool } from '../core/library/tool-paths.js';

export type PlaybackPlan =
  { kind: 'original' } | { kind: 'remux'; reason: string } | { kind: 'transcode'; reason: string };

const PLAYABLE_CODECS: ReadonlySet<string> = new Set(['h264', 'vp8', 'vp9', 'av1']);

export interface ClipStreams {
  /** ffprobe's demuxer names (`avi`, `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`…). */
  container: string;
  videoCodec: string | null;
}

/** The plan for a clip from what ffprobe says about it (`force`: the original showed no picture). */
export function planPlayback(streams: ClipStreams, force = false): PlaybackPlan {
  const codec = streams.videoCodec ?? 'unknown';
  const avi = streams.container.split(',').includes('avi');
  if (!PLAYABLE_CODECS.has(codec)) return { kind: 'transcode', reason: `${codec} codec` };
  if (avi && codec === 'h264') return { kind: 'remux', reason: 'AVI container' };
  if (avi) return { kind: 'transcode', reason: 'AVI container' };
  if (force) return { kind: 'transcode', reason: 'no picture in the original' };
  return { kind: 'original' };
}

/** The container and video codec of a local clip, with ffprobe. */
export async function probeStreams(file: string): Promise<ClipStreams> {
  const ffprobe = await resolveTool('ffprobe');
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-print_format', 'json'];
  args.push('-show_entries', 'format=format_name:stream=codec_type,codec_name');
  args.push(`file:${resolve(file)}`);
  const stdout = await new Promise<string>((done, fail) => {
    execFile(ffprobe, args, { timeout: 30_000 }, (err, out, stderr) =>
      err ? fail(new Error(`ffprobe could not read the clip: ${stderr.trim()}`)) : done(out),
    );
  });
  const parsed = JSON.parse(stdout) as {
    format?: { format_name?: string };
    streams?: { codec_type?: string; codec_name?: string }[];
  };
  const video = parsed.streams?.find((s) => s.codec_type === 'video');
  return { container: parsed.format?.format_name ?? '', videoCodec: video?.codec_name ?? null };
}

let encoders: Promise<string> | undefined;

/** H.264 MP4 where this ffmpeg has libx264, else VP9 WebM (both play in Chromium). */
export async function proxyEncoding(): Promise<'h264' | 'vp9'> {
  encoders ??= resolveTool('ffmpeg').then(
    (ffmpeg) =>
      new Promise<string>((done) =>
        execFile(ffmpeg, ['-hide_banner', '-encoders'], { timeout: 30_000 }, (_e, out) =>
          done(out),
        ),
      ),
  );
  return /\blibx264\b/.test(await encoders) ? 'h264' : 'vp9';
}

/** ffmpeg's output options for a plan (frames are kept one for one, so boxes stay in sync). */
export function proxyArgs(plan: PlaybackPlan, encoding: 'h264' | 'vp9'): string[] {
  const keepFrames = ['-map', '0:v:0', '-an', '-fps_mode', 'passthrough'];
  if (plan.kind === 'remux') return [...keepFrames, '-c:v', 'copy', '-movflags', '+faststart'];
  if (encoding === 'h264') {
    return [
      ...keepFrames,
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'],
      ...['-movflags', '+faststart'],
    ];
  }
  return [
    ...keepFrames,
    ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '0', '-crf', '32'],
    ...['-pix_fmt', 'yuv420p'],
  ];
}

/** The proxy's file extension for an encoding (a remux of H.264 is MP4 too). */
export function proxyExtension(plan: PlaybackPlan, encoding: 'h264' | 'vp9'): 'mp4' | 'webm' {
  return plan.kind === 'remux' || encoding === 'h264' ? 'mp4' : 'webm';
}
