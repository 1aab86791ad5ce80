/** Frames a run will cost, from the catalog alone: images × image cost; clips × sampled frames × frame cost. */
import type { MediaRecord } from '../store/store-types.js';
import type { CatalogView } from './service-port.js';

export type Solution = CatalogView['solutions'][number];

export interface LocalRefusal {
  code: string;
  message: string;
}

const MiB = 1024 * 1024;
const EXTENSION_FORMAT: Record<string, string> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  tif: 'tiff',
  tiff: 'tiff',
  avif: 'avif',
  bmp: 'bmp',
  mp4: 'mp4',
  m4v: 'mp4',
  webm: 'webm',
  mov: 'mov',
  avi: 'avi',
  mkv: 'mkv',
};

export function formatOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : EXTENSION_FORMAT[path.slice(dot + 1).toLowerCase()];
}

export function sampledFrames(durationMs: number, sampleFps: number): number {
  return Math.max(1, Math.ceil((durationMs / 1000) * sampleFps));
}

/** The frames one file costs with this solution; null while that cost is unknown (not published, not learnt). */
export function costOf(
  media: Pick<MediaRecord, 'kind' | 'durationMs'>,
  solution: Solution,
  limits: CatalogView['limits'],
): number | null {
  if (media.kind === 'image') return solution.frameCost.image;
  const perFrame = solution.frameCost.videoFrame;
  if (perFrame === null) return null;
  // A learnt per-frame cost may be fractional; the key is charged whole frames.
  return Math.round(sampledFrames(media.durationMs ?? 0, limits.videoSampleFps) * perFrame);
}

/** Files that break the published limits are refused here, costing no request. */
export function refuseLocally(
  media: MediaRecord,
  solution: Solution,
  limits: CatalogView['limits'],
): LocalRefusal | undefined {
  if (!solution.media.includes(media.kind)) {
    return {
      code: 'unsupported_media',
      message: `Solution ${solution.id} does not take ${media.kind}s.`,
    };
  }
  const format = formatOf(media.path);
  const formats = media.kind === 'image' ? limits.imageFormats : limits.videoFormats;
  if (!format || !formats.includes(format)) {
    return {
      code: 'unsupported_format',
      message: `The service accepts ${media.kind}s as ${formats.join(', ')}; this file is ${format ?? 'of an unknown format'}.`,
    };
  }
  const max = media.kind === 'image' ? limits.maxImageBytes : limits.maxVideoBytes;
  if (media.size > max) {
    return {
      code: 'file_too_large',
      message: `The file is ${(media.size / MiB).toFixed(1)} MiB; the service takes at most ${(max / MiB).toFixed(0)} MiB.`,
    };
  }
  if (media.kind === 'video') {
    if (media.durationMs === null)
      return { code: 'unprobed_clip', message: 'The clip could not be probed for its duration.' };
    if (media.durationMs > limits.maxVideoSeconds * 1000) {
      return {
        code: 'video_too_long',
        message: `The clip lasts ${Math.round(media.durationMs / 1000)} s; the service takes at most ${limits.maxVideoSeconds} s.`,
      };
    }
  }
  return undefined;
}
