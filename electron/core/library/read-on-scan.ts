/**
 * Reading new files during the scan, so that each new row is written once, complete: the scan's
 * batch of new and changed files goes to the read pool (hash and header in worker threads, both
 * cores) and comes back as rows carrying their hash and probe, or the per-file error. A row the
 * read could not settle (the file changed or vanished since its stat, a format the fast parser
 * leaves) is stored as the plain scan stores it, and the read pass after the scan takes it up.
 *
 * A row the walk left unstated (stat-later.ts) takes its size, time and identity from the read's
 * fstat; where the read could not settle it (or the pool stopped), it is stat'ed here, so it is
 * the row (or the issue) a stat during the walk would have given. Such a row is never returned
 * unstated: the result may hold fewer rows than given.
 */
import type { MediaUpsert } from '../store/store-types.js';
import type { LibraryIssue } from './media-types.js';
import type { FileRead } from './read-files.js';
import type { ReadPool } from './read-pool.js';
import { isUnstated, statRowNow } from './stat-later.js';

export type ReadRows = (rows: readonly MediaUpsert[]) => Promise<MediaUpsert[]>;

export function readOnScan(
  pool: ReadPool,
  signal: AbortSignal | undefined,
  onIssue: (issue: LibraryIssue) => void,
): ReadRows {
  const stated = (row: MediaUpsert) => (isUnstated(row) ? statRowNow(row, onIssue) : row);
  return async (rows) => {
    let reads: FileRead[];
    try {
      reads = await pool.read(
        rows.map((r) => ({ path: r.path, kind: r.kind })),
        signal,
      );
    } catch {
      // Stopped, or a worker lost: the rows as a plain scan writes them.
      return present(rows.map(stated));
    }
    return present(
      rows.map((row, i) => {
        const read = reads[i] as FileRead;
        if (!isUnstated(row)) return withRead(row, read);
        return read.ok ? withRead(row, read, true) : withRead(stated(row), read);
      }),
    );
  };
}

const present = (rows: (MediaUpsert | undefined)[]) =>
  rows.filter((r): r is MediaUpsert => r !== undefined);

/**
 * The row completed by its read, in one new object (100k rows a cold plan). `ownStat`: the row was
 * left unstated, so the read's fstat gives its size, time and identity.
 */
function withRead(
  row: MediaUpsert | undefined,
  read: FileRead,
  ownStat = false,
): MediaUpsert | undefined {
  if (!row) return undefined;
  if (!read.ok) {
    // Gone, or changed while read: left to the read pass (it marks it missing, or reads it again).
    const { code, message } = read.error;
    if (code === 'not_found' || code === 'changed_while_reading') return row;
    return { ...row, status: 'error', errorCode: code, errorMessage: message };
  }
  const stat = ownStat ? { size: read.size, mtimeMs: read.mtimeMs, fileId: read.fileId } : {};
  if (!ownStat && (read.size !== row.size || read.mtimeMs !== row.mtimeMs)) return row;
  const { probe, hash: contentHash } = read;
  if (!probe) return { ...row, ...stat, contentHash };
  if (!probe.ok) {
    const { code: errorCode, message: errorMessage } = probe;
    return { ...row, ...stat, contentHash, status: 'error', errorCode, errorMessage };
  }
  return probed(row, ownStat ? read : row, contentHash, probe.info);
}

/** The common case, field by field: one object shape (a spread of 100k rows cost ~4x). */
function probed(
  row: MediaUpsert,
  stat: { size: number; mtimeMs: number; fileId?: string | null },
  contentHash: string,
  info: Pick<MediaUpsert, 'width' | 'height' | 'orientation' | 'durationMs' | 'fps'>,
): MediaUpsert {
  return {
    folderId: row.folderId,
    path: row.path,
    kind: row.kind,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    contentHash,
    width: info.width,
    height: info.height,
    orientation: info.orientation,
    durationMs: info.durationMs,
    fps: info.fps,
    status: row.status ?? 'present',
    errorCode: row.errorCode ?? null,
    errorMessage: row.errorMessage ?? null,
    fileId: stat.fileId ?? null,
  };
}
