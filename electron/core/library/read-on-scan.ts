/**
 * Reading new files during the scan, so that each new row is written once, complete: the scan's
 * batch of new and changed files goes to the read pool (hash and header in worker threads, both
 * cores) and comes back as rows carrying their hash and probe, or the per-file error. A row the
 * read could not settle (the file changed or vanished since its stat, a format the fast parser
 * leaves) is stored as the plain scan stores it, and the read pass after the scan takes it up.
 */
import type { MediaUpsert } from '../store/store-types.js';
import type { FileRead } from './read-files.js';
import type { ReadPool } from './read-pool.js';

export type ReadRows = (rows: readonly MediaUpsert[]) => Promise<MediaUpsert[]>;

export function readOnScan(pool: ReadPool, signal?: AbortSignal): ReadRows {
  return async (rows) => {
    const reads = await pool.read(
      rows.map((r) => ({ path: r.path, kind: r.kind })),
      signal,
    );
    return rows.map((row, i) => withRead(row, reads[i] as FileRead));
  };
}

function withRead(row: MediaUpsert, read: FileRead): MediaUpsert {
  if (!read.ok) {
    // Gone, or changed while read: left to the read pass (it marks it missing, or reads it again).
    const { code, message } = read.error;
    if (code === 'not_found' || code === 'changed_while_reading') return row;
    return { ...row, status: 'error', errorCode: code, errorMessage: message };
  }
  if (read.size !== row.size || read.mtimeMs !== row.mtimeMs) return row;
  const hashed = { ...row, contentHash: read.hash };
  if (!read.probe) return hashed;
  if (!read.probe.ok) {
    return {
      ...hashed,
      status: 'error',
      errorCode: read.probe.code,
      errorMessage: read.probe.message,
    };
  }
  const { width, height, orientation, durationMs, fps } = read.probe.info;
  return { ...hashed, width, height, orientation, durationMs, fps };
}
