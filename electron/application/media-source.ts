/**
 * Thumbnails and files by library id only: the renderer never names a path. An item is served
 * only while its path leads to the file that was scanned and probed (media-identity.ts).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkMedia, openVerifiedMedia } from '../core/library/media-identity.js';
import { thumbnailFor } from '../core/library/thumbnails.js';
import type { FolderMediaReader } from '../core/store/store-ports.js';
import type { MediaFile, MediaSource, MediaVariant } from './application-types.js';
import type { ProxyMaker } from './proxy-maker.js';

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
};

export function contentTypeOf(file: string): string {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

export function createMediaSource(
  store: FolderMediaReader,
  home: string,
  proxies: ProxyMaker,
): MediaSource {
  const cacheDir = join(home, 'thumbnails');
  return {
    async resolve(variant: MediaVariant, id: number): Promise<MediaFile | undefined> {
      const media = store.media.byId(id);
      if (!media || media.status === 'missing') return undefined;
      const root = store.folders.list().find((f) => f.id === media.folderId)?.path;
      if (variant === 'file') {
        const opened = await openVerifiedMedia(media, root);
        if (!opened.ok) return undefined;
        const { handle, size } = opened;
        return { path: media.path, contentType: contentTypeOf(media.path), size, handle };
      }
      if (await checkMedia(media, root)) return undefined;
      if (variant === 'proxy') {
        const file = proxies.proxyFile(media);
        if (!file) return undefined;
        const st = await stat(file);
        return { path: file, contentType: contentTypeOf(file), size: st.size };
      }
      const thumb = await thumbnailFor(media, cacheDir);
      if (!thumb.ok) return undefined;
      const st = await stat(thumb.file);
      return { path: thumb.file, contentType: contentTypeOf(thumb.file), size: st.size };
    },
  };
}
