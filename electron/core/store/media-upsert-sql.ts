/**
 * The media upsert, bound by position: a scan writes 100k rows with it, and positional binding
 * costs a quarter less than named parameters. Columns and values are listed side by side here,
 * in one order, so that a value can never land in another column.
 */
import type { MediaUpsert } from './store-types.js';

/** Every stored column of a media row but its id, in the order its values are bound. */
export const MEDIA_COLUMNS = [
  'folder_id',
  'path',
  'kind',
  'size',
  'mtime_ms',
  'content_hash',
  'width',
  'height',
  'orientation',
  'duration_ms',
  'fps',
  'status',
  'error_code',
  'error_message',
  'file_id',
] as const;

export type MediaUpsertValues = [
  folderId: number,
  path: string,
  kind: string,
  size: number,
  mtimeMs: number,
  contentHash: string | null,
  width: number | null,
  height: number | null,
  orientation: number,
  durationMs: number | null,
  fps: number | null,
  status: string,
  errorCode: string | null,
  errorMessage: string | null,
  fileId: string | null,
];

/** A row's values in the order of MEDIA_COLUMNS; a file seen again is present and clean by default. */
export const mediaUpsertValues = (r: MediaUpsert): MediaUpsertValues => [
  r.folderId,
  r.path,
  r.kind,
  r.size,
  r.mtimeMs,
  r.contentHash,
  r.width,
  r.height,
  r.orientation,
  r.durationMs,
  r.fps,
  r.status ?? 'present',
  r.errorCode ?? null,
  r.errorMessage ?? null,
  r.fileId ?? null,
];

const updates = MEDIA_COLUMNS.filter((c) => c !== 'path').map((c) => `${c} = excluded.${c}`);

/** The upsert by path; `RETURNING id` costs ~20% more per row, so only callers that need it add it. */
export const MEDIA_UPSERT_SQL = `INSERT INTO media (${MEDIA_COLUMNS.join(', ')})
  VALUES (${MEDIA_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (path) DO UPDATE SET ${updates.join(', ')}`;
