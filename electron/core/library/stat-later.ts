/**
 * Files whose stat is left to the read (a cold scan): the walk only lists them, and the read pool's
 * workers open and fstat each file anyway to hash it, so their size, time and identity come from
 * that fstat. 100k stats on the walking thread were a fifth of its work in a cold plan. A file the
 * read cannot settle is stat'ed here instead, with the walk's own rules and sentences, so the
 * outcome is what a stat during the walk would have given: a row, or one issue and no row.
 */
import { statSync, type Stats } from 'node:fs';
import type { MediaKind, MediaUpsert } from '../store/store-types.js';
import type { LibraryIssue } from './media-types.js';
import { messageOf } from '../../shared/error-message.js';

/** Size and time of an entry not stat'ed yet (never stored: the column refuses a negative size). */
export const UNSTATED = -1;

export const isUnstated = (entry: { size: number }) => entry.size === UNSTATED;

export const fileIdOf = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

/** The issue of a file or folder whose stat (or listing) failed, as the walk reports it. */
export function statIssue(file: string, err: unknown, folder: boolean): LibraryIssue {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const issue = (c: string, message: string) => ({ path: file, code: c, message });
  if (code === 'ENOENT') {
    return issue('vanished', 'It was deleted or moved while the folder was scanned.');
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return folder
      ? issue('unreadable_folder', 'The folder cannot be opened: permission denied.')
      : issue('unreadable_file', 'The file cannot be read: permission denied.');
  }
  const reason = messageOf(err);
  return issue('io_error', `It cannot be read: ${reason}`);
}

export const notAFileIssue = (file: string): LibraryIssue => ({
  path: file,
  code: 'link_not_a_file',
  message:
    'The link points to something that is not a regular file (a device, a pipe or a socket); it is not read.',
});

/**
 * An unstated row as the walk would have written it, stat'ed now (synchronously: it is rare, a
 * file the read could not settle); undefined, with its issue reported, where the walk would have
 * written no row.
 */
export function statRowNow(
  row: MediaUpsert & { kind: MediaKind },
  onIssue: (issue: LibraryIssue) => void,
): MediaUpsert | undefined {
  let st: Stats;
  try {
    st = statSync(row.path);
  } catch (err) {
    return void onIssue(statIssue(row.path, err, false));
  }
  if (!st.isFile()) return void onIssue(notAFileIssue(row.path));
  return { ...row, size: st.size, mtimeMs: st.mtimeMs, fileId: fileIdOf(st) };
}
