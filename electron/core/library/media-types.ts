/** Which files the library takes, and the per-entry problems it reports instead of failing. */
import path from 'node:path';
import type { LibraryStore, MediaKind } from '../store/store-types.js';
import { messageOf } from '../../shared/error-message.js';

export const IMAGE_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'webp',
  'gif',
  'tif',
  'tiff',
  'avif',
  'bmp',
] as const;
export const CLIP_EXTENSIONS = ['mp4', 'webm', 'mov', 'avi', 'mkv', 'm4v'] as const;

const KIND_BY_EXTENSION = new Map<string, MediaKind>([
  ...IMAGE_EXTENSIONS.map((e) => [`.${e}`, 'image'] as const),
  ...CLIP_EXTENSIONS.map((e) => [`.${e}`, 'video'] as const),
]);

/** 'image' | 'video' by extension (case-insensitive), undefined for anything else. */
export function mediaKindOf(file: string): MediaKind | undefined {
  return KIND_BY_EXTENSION.get(path.extname(file).toLowerCase());
}

/** The media a scan, a watch and a read pass use: the port a fake library store implements. */
export type LibraryMediaPort = Pick<
  LibraryStore['media'],
  | 'upsertMany'
  | 'writeMany'
  | 'setHashAndProbe'
  | 'byPath'
  | 'byId'
  | 'snapshot'
  | 'snapshotPage'
  | 'anyUnhashed'
  | 'markMissing'
  | 'markError'
  | 'list'
>;

/**
 * What the library needs of the store: folders, those media methods, a run of bulk writes, and
 * the database file a scan's worker thread writes rows to (null for a store with no file, an
 * in-memory fake: its rows are then written on this thread).
 */
export type LibraryMediaStore = Pick<LibraryStore, 'folders' | 'bulkWrites'> & {
  media: LibraryMediaPort;
  readonly file: string | null;
};

/** A per-file (or per-folder) problem: reported, never fatal. */
export interface LibraryIssue {
  path: string;
  code: string;
  message: string;
}

/** A per-file failure returned as a value (probe, thumbnail, hash). */
export interface FileError {
  code: string;
  message: string;
}

/** Maps a Node fs error to a stable code and a sentence a user can act on. */
export function fsError(err: unknown, what: string): FileError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return { code: 'not_found', message: `${what} no longer exists.` };
    case 'EACCES':
    case 'EPERM':
      return { code: 'permission_denied', message: `${what} cannot be read: permission denied.` };
    case 'EISDIR':
      return { code: 'not_a_file', message: `${what} is a folder, not a file.` };
    default:
      return {
        code: 'io_error',
        message: `${what} cannot be read: ${messageOf(err)}`,
      };
  }
}
