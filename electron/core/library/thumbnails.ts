/**
 * 256-px WebP thumbnails, cached on disk. Keyed by content hash when the hash still matches the
 * file (same bytes under two names share one thumbnail), else by path + size + mtime, so an edited
 * file never shows its old picture. Written to a temp name and renamed: readers never see half a file.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRecord } from '../store/store-types.js';
import { type FileError, fsError } from './media-types.js';
import { resolveTool } from './tool-paths.js';
import { vipsAlone, vipsShared } from './vips-alone.js';
import { messageOf } from '../../shared/error-message.js';

export const THUMBNAIL_SIZE = 256;

export type ThumbnailSource = Pick<
  MediaRecord,
  'path' | 'kind' | 'size' | 'mtimeMs' | 'contentHash'
>;

export type ThumbnailResult =
  { ok: true; file: string; cached: boolean } | ({ ok: false } & FileError);

export interface ThumbnailOptions {
  ffmpegPath?: string;
}

export async function thumbnailFor(
  media: ThumbnailSource,
  cacheDir: string,
  options: ThumbnailOptions = {},
): Promise<ThumbnailResult> {
  let st;
  try {
    st = await stat(media.path);
  } catch (err) {
    return { ok: false, ...fsError(err, 'The file') };
  }
  const hashIsCurrent =
    media.contentHash !== null && st.size === media.size && st.mtimeMs === media.mtimeMs;
  const key = hashIsCurrent
    ? `h-${media.contentHash}`
    : `p-${createHash('sha256').update(`${media.path}\0${st.size}\0${st.mtimeMs}`).digest('hex')}`;
  // Two-character fan-out keeps folders small with 100k thumbnails.
  const file = path.join(cacheDir, key.slice(2, 4), `${key}.webp`);
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  )
    return { ok: true, file, cached: true };

  let input: string | Buffer = media.path;
  if (media.kind === 'video') {
    const frame = await firstFrame(media.path, options.ffmpegPath);
    if (!Buffer.isBuffer(frame)) return { ok: false, ...frame };
    input = frame;
  }
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  // Loaded on the first thumbnail made, not cached: sharp costs the app's start ~0.1–0.2 s.
  const { default: sharp } = await import('sharp');
  const write = () =>
    sharp(input, { animated: false })
      .autoOrient()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(tmp);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    // A failure's message may be another file's when several fail at once: made again alone.
    await vipsShared(write).catch(() => vipsAlone(write));
    await rename(tmp, file);
    return { ok: true, file, cached: false };
  } catch (err) {
    await rm(tmp, { force: true });
    const message = messageOf(err).split('\n')[0];
    return { ok: false, code: 'undecodable_media', message: `No thumbnail: ${message}` };
  }
}

/** One frame near the start of a clip as PNG bytes; ffmpeg applies the clip's rotation itself. */
async function firstFrame(file: string, ffmpegPath?: string): Promise<Buffer | FileError> {
  let ffmpeg: string;
  try {
    ffmpeg = await resolveTool('ffmpeg', ffmpegPath);
  } catch (err) {
    return {
      code: 'ffmpeg_unavailable',
      message: messageOf(err),
    };
  }
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-i', `file:${path.resolve(file)}`];
  args.push('-frames:v', '1', '-vf', `scale=${THUMBNAIL_SIZE * 2}:-2`, '-f', 'image2pipe');
  args.push('-vcodec', 'png', '-');
  return new Promise((resolve) => {
    execFile(
      ffmpeg,
      args,
      { encoding: 'buffer', timeout: 30_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err && stdout.length) return resolve(stdout);
        const last = stderr.toString().trim().split('\n').pop();
        resolve({
          code: 'undecodable_media',
          message: `No frame could be read from the clip${last ? `: ${last}` : '.'}`,
        });
      },
    );
  });
}
