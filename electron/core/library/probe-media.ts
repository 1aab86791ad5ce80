/**
 * Reads what the library shows and the runner needs before sending a file: plain JPEGs by their
 * header (jpeg-header.ts, the same answer as sharp's, ~40× cheaper), other images with sharp's
 * header read (no pixel decode), clips with ffprobe (local files only, never a playlist or URL).
 * One bad file is a result with a code and a sentence, never a throw.
 */
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { access, open } from 'node:fs/promises';
import path from 'node:path';
import type sharpType from 'sharp';
import type { Metadata } from 'sharp';
import type { MediaKind } from '../store/store-types.js';
import { type JpegHeader, parseJpegHeader } from './jpeg-header.js';
import { vipsAlone, vipsShared } from './vips-alone.js';
import { type FileError, fsError } from './media-types.js';
import type { SlicedFs } from './scan-fs.js';
import { resolveTool } from './tool-paths.js';
import { messageOf } from '../../shared/error-message.js';

type Sharp = typeof sharpType;

/** sharp is loaded on first use: a run whose files are all known (or plain JPEGs) never loads it. */
let sharpModule: Promise<Sharp> | undefined;
const loadSharp = (): Promise<Sharp> => (sharpModule ??= import('sharp').then((m) => m.default));

/** Bytes read from the start of a JPEG for its header: EXIF and tables fit in this for photos. */
const HEADER_BYTES = 64 * 1024;

export interface MediaInfo {
  /** The file's own size, before EXIF orientation or clip rotation. */
  width: number;
  height: number;
  /** EXIF orientation 1–8; for clips, the rotation expressed the same way (90° → 6). */
  orientation: number;
  /** sharp's format (jpeg, png…) or ffprobe's demuxer name. */
  format: string;
  durationMs: number | null;
  fps: number | null;
  /** Clockwise degrees a player turns the clip (0, 90, 180, 270); 0 for images. */
  rotation: number;
}

export type ProbeResult = { ok: true; info: MediaInfo } | ({ ok: false } & FileError);

export interface ProbeOptions {
  ffprobePath?: string;
  timeoutMs?: number;
  /** Reads a JPEG's header synchronously while the disk is fast (one policy per probing pass). */
  fs?: SlicedFs;
}

export async function probeMedia(
  file: string,
  kind: MediaKind,
  options: ProbeOptions = {},
): Promise<ProbeResult> {
  if (kind === 'image' && /\.jpe?g$/i.test(file)) {
    const fast = await jpegFastPath(file, options.fs);
    if (fast) return fast;
  }
  try {
    await access(file);
  } catch (err) {
    return { ok: false, ...fsError(err, 'The file') };
  }
  return kind === 'image' ? probeImage(file) : probeClip(file, options);
}

/**
 * A plain JPEG's header read directly (jpeg-header.ts): the answer sharp would give, without its
 * per-call cost. Undefined for anything else, a read error included: the full path then decides,
 * so codes and messages stay exactly those of access() and sharp.
 */
async function jpegFastPath(
  file: string,
  fs: SlicedFs | undefined,
): Promise<ProbeResult | undefined> {
  let h: JpegHeader | undefined;
  try {
    h = fs
      ? await fs.run(
          () => parseJpegHeader(readHeadSync(file)),
          async () => parseJpegHeader(await readHead(file)),
        )
      : parseJpegHeader(await readHead(file));
  } catch {
    return undefined;
  }
  return h && jpegResult(h);
}

/**
 * The probe result of a file from bytes already read from its start (a hashing read): what
 * `probeMedia` answers by the JPEG fast path, from the same first HEADER_BYTES. Undefined when
 * that path would not answer (not a plain JPEG image, or the parser defers): call `probeMedia`.
 */
export function probeFromBytes(
  file: string,
  kind: MediaKind,
  bytes: Uint8Array,
): ProbeResult | undefined {
  if (kind !== 'image' || !/\.jpe?g$/i.test(file)) return undefined;
  const h = parseJpegHeader(bytes.subarray(0, HEADER_BYTES));
  return h && jpegResult(h);
}

function jpegResult(h: JpegHeader): ProbeResult {
  return {
    ok: true,
    info: {
      width: h.width,
      height: h.height,
      orientation: h.orientation,
      format: 'jpeg',
      durationMs: null,
      fps: null,
      rotation: 0,
    },
  };
}

/** Reused by synchronous reads, each parsed before the next: no 64 KiB allocation per file. */
let shared: Buffer | undefined;

function readHeadSync(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = (shared ??= Buffer.allocUnsafe(HEADER_BYTES));
    return buffer.subarray(0, readSync(fd, buffer, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(HEADER_BYTES);
    const { bytesRead } = await fh.read(buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function probeImage(file: string): Promise<ProbeResult> {
  let sharp: Sharp;
  try {
    sharp = await loadSharp();
  } catch (err) {
    return undecodable(`The image cannot be decoded: ${firstLine(err)}`);
  }
  let m: Metadata;
  try {
    m = await vipsShared(() => sharp(file).metadata());
  } catch {
    // The message may be another file's when reads fail at once: read it again alone.
    const again = await vipsAlone(() => sharp(file).metadata()).then(
      (metadata) => ({ metadata }),
      (err: unknown) => ({ error: firstLine(err) }),
    );
    if ('error' in again) return undecodable(`The image cannot be decoded: ${again.error}`);
    m = again.metadata;
  }
  if (!m.width || !m.height) return undecodable('The image has no readable size.');
  return {
    ok: true,
    info: {
      width: m.width,
      height: m.height,
      orientation: m.orientation && m.orientation >= 1 && m.orientation <= 8 ? m.orientation : 1,
      format: m.format ?? 'unknown',
      durationMs: null,
      fps: null,
      rotation: 0,
    },
  };
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

async function probeClip(file: string, options: ProbeOptions): Promise<ProbeResult> {
  let ffprobe: string;
  try {
    ffprobe = await resolveTool('ffprobe', options.ffprobePath);
  } catch (err) {
    return { ok: false, code: 'ffprobe_unavailable', message: firstLine(err) };
  }
  // `file:` + absolute path so a name with ':' is never read as another protocol.
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-print_format', 'json'];
  args.push('-show_format', '-show_streams', `file:${path.resolve(file)}`);
  const out = await new Promise<{ stdout: string } | FileError>((resolve) => {
    execFile(
      ffprobe,
      args,
      { timeout: options.timeoutMs ?? 30_000, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout });
        if (err.killed) {
          return resolve({ code: 'probe_timeout', message: 'Reading the clip took too long.' });
        }
        const last = stderr
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^file:\S*: /, '');
        resolve({
          code: 'undecodable_media',
          message: `The clip cannot be read${last ? `: ${last}` : '.'}`,
        });
      },
    );
  });
  if ('code' in out) return { ok: false, ...out };
  let parsed: { format?: { format_name?: string; duration?: string }; streams?: ProbeStream[] };
  try {
    parsed = JSON.parse(out.stdout) as typeof parsed;
  } catch {
    return undecodable('ffprobe returned unreadable output for this clip.');
  }
  // Cover art is a one-picture "video" stream; the real track is any other.
  const video = parsed.streams?.find(
    (s) => s.codec_type === 'video' && !s.disposition?.attached_pic,
  );
  if (!video) return undecodable('The file has no video track.');
  const fps = rate(video.avg_frame_rate) ?? rate(video.r_frame_rate);
  if (!video.width || !video.height) return undecodable('The video track has no usable size.');
  const seconds = positive(Number(parsed.format?.duration)) ?? positive(Number(video.duration));
  const rotation = clockwise(video);
  return {
    ok: true,
    info: {
      width: video.width,
      height: video.height,
      orientation: ROTATION_TO_ORIENTATION[rotation] ?? 1,
      format: parsed.format?.format_name ?? 'unknown',
      durationMs: seconds === undefined ? null : Math.round(seconds * 1000),
      fps: fps ?? null,
      rotation,
    },
  };
}

const ROTATION_TO_ORIENTATION: Record<number, number> = { 0: 1, 90: 6, 180: 3, 270: 8 };

/** Display-matrix rotation is counter-clockwise (-90 = a portrait phone clip); the old tag is clockwise. */
function clockwise(s: ProbeStream): number {
  const side = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const deg = side !== undefined ? -side : Number(s.tags?.rotate) || 0;
  return (((Math.round(deg / 90) * 90) % 360) + 360) % 360;
}

function rate(r: string | undefined): number | undefined {
  const [num, den] = (r ?? '').split('/').map(Number);
  return num && den ? positive(num / den) : undefined;
}

function positive(n: number): number | undefined {
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function undecodable(message: string): ProbeResult {
  return { ok: false, code: 'undecodable_media', message };
}

function firstLine(err: unknown): string {
  return messageOf(err).split('\n')[0] ?? '';
}
