/**
 * The media upsert, bound by position: a scan writes 100k rows with it, and positional binding
 * costs a quarter less than named parameters. Columns and values are listed side by side here,
 * in one order, so that a value can never land in another column.
 */
import type { MediaKind, MediaRecord, MediaStatus, MediaUpsert } from './store-types.js';

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

/**
 * A new path's row without the upsert: SQLite runs an upsert with a statement journal (a table
 * with three indexes), which made it a third dearer per row than this plain insert. A path that
 * exists already (or a row a constraint refuses) is ignored here and written by the upsert.
 */
export const MEDIA_INSERT_NEW_SQL = `INSERT OR IGNORE INTO media (${MEDIA_COLUMNS.join(', ')})
  VALUES (${MEDIA_COLUMNS.map(() => '?').join(', ')})`;

interface InsertStatement {
  run(...values: MediaUpsertValues): { changes: number; lastInsertRowid: number | bigint };
}

/** MEDIA_UPSERT_SQL with `RETURNING id`. */
interface UpsertStatement {
  get(...values: MediaUpsertValues): { id: number } | undefined;
}

/**
 * Each row as MEDIA_UPSERT_SQL writes it: inserted when its path is new, else upserted (which
 * also throws, with SQLite's code, for a row a constraint refuses). Returns the rows' ids in
 * order: an insert's is its rowid, so only an upserted row reads its id back.
 */
export function writeMediaRows(
  rows: readonly MediaUpsert[],
  insertNew: InsertStatement,
  upsert: UpsertStatement,
): number[] {
  const ids = new Array<number>(rows.length);
  rows.forEach((r, i) => {
    const values = mediaUpsertValues(r);
    const inserted = insertNew.run(...values);
    const upserted = inserted.changes === 0 ? upsert.get(...values) : undefined;
    if (inserted.changes === 0 && !upserted) throw new Error(`media ${r.path}: no row written`);
    ids[i] = upserted ? upserted.id : Number(inserted.lastInsertRowid);
  });
  return ids;
}

/** A whole media row, id first, in the order `mediaFromValues` reads it. */
export const MEDIA_ROW_SQL = `id, ${MEDIA_COLUMNS.join(', ')}`;

/**
 * A media row read raw (`MEDIA_ROW_SQL`, better-sqlite3's `.raw()`): an array per row instead of
 * an object keyed by column, then one record; about a third less per row on a 100k-row listing.
 */
export const mediaFromValues = (v: readonly unknown[]): MediaRecord => ({
  id: v[0] as number,
  folderId: v[1] as number,
  path: v[2] as string,
  kind: v[3] as MediaKind,
  size: v[4] as number,
  mtimeMs: v[5] as number,
  contentHash: v[6] as string | null,
  width: v[7] as number | null,
  height: v[8] as number | null,
  orientation: v[9] as number,
  durationMs: v[10] as number | null,
  fps: v[11] as number | null,
  status: v[12] as MediaStatus,
  errorCode: v[13] as string | null,
  errorMessage: v[14] as string | null,
  fileId: v[15] as string | null,
});
