/**
 * Reads a clip's container, codec, size, frame rate and duration with ffprobe.
 *
 * ffprobe only opens the demuxers of the containers we accept (`-format_whitelist`) and only
 * local files (`-protocol_whitelist file`): a playlist or concat file disguised as a clip must
 * never make ffmpeg read other files or the network. Refusals: a container ffprobe recognises but
 * we do not accept → 415; bytes no demuxer understands, or no video stream → 422.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { type ApiError, undecodableMedia, unsupportedMedia } from '../http/api-error.js';
import { resolveFfprobe } from './ffmpeg-paths.js';

export const VIDEO_FORMATS = ['mp4', 'webm', 'mov', 'avi', 'mkv'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** ffprobe's `format_name` (the demuxer) → the containers it may be. */
export const FORMAT_NAME_TO_CONTAINERS: Readonly<Record<string, readonly VideoFormat[]>> = {
  'mov,mp4,m4a,3gp,3g2,mj2': ['mp4', 'mov'],
  'matroska,webm': ['mkv', 'webm'],
  avi: ['avi'],
};

/** For ffmpeg/ffprobe's `-format_whitelist`: exactly the demuxers behind VIDEO_FORMATS. */
export const DEMUXER_WHITELIST = Object.keys(FORMAT_NAME_TO_CONTAINERS).join(',');

export interface VideoInfo {
  durationMs: number;
  /** Average frame rate of the source. */
  fps: number;
  /** Displayed size: rotation metadata already applied. */
  width: number;
  height: number;
  container: string;
  codec: string;
  /** When the container states it (or it had to be counted). */
  frameCount?: number;
}

const PROBE_TIMEOUT_MS = 30_000;
const WEBM_CODECS = new Set(['vp8', 'vp9', 'av1', 'opus', 'vorbis', 'webvtt']);

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  duration?: string;
  nb_read_packets?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}
interface ProbeOutput {
  format?: { format_name?: string; duration?: string; tags?: { major_brand?: string } };
  streams?: ProbeStream[];
}

export async function probeVideo(
  file: string,
  signal?: AbortSignal,
  options: { ffprobePath?: string } = {},
): Promise<VideoInfo> {
  const ffprobe = await resolveFfprobe(options.ffprobePath);
  const input = inputUrl(file);
  const out = await runProbe(
    ffprobe,
    ['-print_format', 'json', '-show_format', '-show_streams', input],
    signal,
  );
  const { format, streams = [] } = out;
  const container = containerOf(format?.format_name ?? '', format?.tags?.major_brand, streams);
  if (!container) {
    throw unsupportedMedia(
      `${notAccepted(format?.format_name)} send one of: ${VIDEO_FORMATS.join(', ')}.`,
    );
  }
  // Cover art is a one-picture "video" stream; the real track is any other.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video) throw undecodableMedia('The file has no video track.');
  const fps = rate(video.avg_frame_rate) ?? rate(video.r_frame_rate);
  if (!video.width || !video.height || !fps) {
    throw undecodableMedia('The video track has no usable size or frame rate.');
  }

  let frameCount = positive(Number(video.nb_frames));
  let durationS = positive(Number(format?.duration)) ?? positive(Number(video.duration));
  if (durationS === undefined) {
    // Streamed recordings (MediaRecorder WebM) carry no duration: count the packets instead;
    // this demuxes without decoding, a fraction of a second for a typical clip.
    const counted = await runProbe(
      ffprobe,
      [
        '-count_packets',
        '-select_streams',
        'V:0',
        '-show_entries',
        'stream=nb_read_packets',
        '-print_format',
        'json',
        input,
      ],
      signal,
    );
    const packets = positive(Number(counted.streams?.[0]?.nb_read_packets));
    if (!packets) throw undecodableMedia('The video has no duration and no readable frames.');
    frameCount = packets;
    durationS = packets / fps;
  }

  const quarterTurn = Math.abs(rotationOf(video)) % 180 === 90;
  return {
    durationMs: Math.round(durationS * 1000),
    fps,
    width: quarterTurn ? video.height : video.width,
    height: quarterTurn ? video.width : video.height,
    container,
    codec: video.codec_name ?? 'unknown',
    ...(frameCount ? { frameCount } : {}),
  };
}

/** Absolute `file:` URL so a name containing ':' is never read as another protocol. */
export function inputUrl(file: string): string {
  return `file:${path.resolve(file)}`;
}

/** Names the container from ffprobe's demuxer name and, where one demuxer serves two, its contents. */
export function containerOf(
  formatName: string,
  majorBrand: string | undefined,
  streams: readonly { codec_name?: string; codec_type?: string }[],
): VideoFormat | undefined {
  const candidates = FORMAT_NAME_TO_CONTAINERS[formatName];
  if (!candidates) return undefined;
  if (formatName === 'avi') return 'avi';
  if (candidates.includes('mov')) return majorBrand?.trim() === 'qt' ? 'mov' : 'mp4';
  const webm = streams.every(
    (s) => s.codec_type === 'attachment' || WEBM_CODECS.has(s.codec_name ?? ''),
  );
  return webm ? 'webm' : 'mkv';
}

function notAccepted(formatName: string | undefined): string {
  return formatName
    ? `The ${formatName} container is not accepted;`
    : 'This container is not accepted;';
}

function rotationOf(s: ProbeStream): number {
  const fromSideData = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  return fromSideData ?? (Number(s.tags?.rotate) || 0);
}

function rate(r: string | undefined): number | undefined {
  const [num, den] = (r ?? '').split('/').map(Number);
  return num && den ? positive(num / den) : undefined;
}

function positive(n: number): number | undefined {
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function runProbe(ffprobe: string, args: string[], signal?: AbortSignal): Promise<ProbeOutput> {
  const fullArgs = [
    '-v',
    'error',
    '-format_whitelist',
    DEMUXER_WHITELIST,
    '-protocol_whitelist',
    'file',
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      ffprobe,
      fullArgs,
      { signal, timeout: PROBE_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (signal?.aborted) return reject(signal.reason ?? err);
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT' && !stderr) {
          return reject(new Error(`Cannot run ffprobe at ${ffprobe}: ${err.message}`));
        }
        if (err) return reject(probeError(stderr, err.killed === true));
        try {
          resolve(JSON.parse(stdout) as ProbeOutput);
        } catch {
          reject(undecodableMedia('ffprobe returned unreadable output for this file.'));
        }
      },
    );
  });
}

function probeError(stderr: string, timedOut: boolean): ApiError {
  if (timedOut)
    return undecodableMedia('Reading the video took too long; the file may be damaged.');
  // ffprobe recognised the bytes as a container outside the whitelist: "[mp3 @ 0x…] Format not on whitelist".
  const refused = /^\[(\w+) @ [^\]]*\] Format not on whitelist/m.exec(stderr);
  if (refused) {
    return unsupportedMedia(`${notAccepted(refused[1])} send one of: ${VIDEO_FORMATS.join(', ')}.`);
  }
  const lastLine =
    stderr
      .trim()
      .split('\n')
      .pop()
      ?.replace(/^file:\S*: /, '') ?? '';
  return undecodableMedia(`The video cannot be read${lastLine ? `: ${lastLine}` : '.'}`);
}
