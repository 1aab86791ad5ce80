/**
 * A library item is read (served to the UI, uploaded) only while its path still leads to the file
 * that was scanned and probed: a probe that succeeded, and the file opened now having the same
 * `dev:ino`, size and mtime as recorded. A link swapped after the scan (`photo.jpg -> /etc/passwd`)
 * or a file replaced by a link is refused. Rows scanned before identities were recorded fall back
 * to the boundary itself: the real path must lie inside the real path of their library folder.
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { MediaRecord } from '../store/store-types.js';
import type { FileError } from './media-types.js';
import { fileIdOf } from './scan-folder.js';
import { SlicedFs } from './scan-fs.js';

/**
 * Checks before uploads run synchronously while the disk is fast (scan-fs.ts): three promise
 * round trips per photo (open, fstat, close) cost more main-thread time than the rest of a check.
 */
const checkFs = new SlicedFs();

export type VerifiedMedia =
  { ok: true; handle: FileHandle; size: number } | ({ ok: false } & FileError);

type Checked = Pick<
  MediaRecord,
  'path' | 'size' | 'mtimeMs' | 'width' | 'status' | 'fileId' | 'errorCode'
>;

/**
 * Opens the item's file if it is still the probed one; the caller reads from (and closes) the
 * handle, so nothing can be swapped between the check and the read. `rootPath` is the item's
 * library root (used only for rows without a recorded identity).
 */
export async function openVerifiedMedia(
  media: Checked,
  rootPath: string | undefined,
): Promise<VerifiedMedia> {
  if (media.status !== 'present' || media.width === null) return notProbed();
  let handle: FileHandle;
  try {
    handle = await open(media.path, 'r');
  } catch (err) {
    return openError(err);
  }
  try {
    const st = await handle.stat();
    const same =
      st.isFile() &&
      st.size === media.size &&
      st.mtimeMs === media.mtimeMs &&
      (media.fileId ? fileIdOf(st) === media.fileId : await insideRoot(media.path, rootPath));
    if (!same) {
      await handle.close();
      return replaced();
    }
    return { ok: true, handle, size: st.size };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Checks the item without keeping it open (uploads and thumbnails open the file themselves): the
 * same checks as `openVerifiedMedia`, on a descriptor opened and closed here.
 */
export async function checkMedia(
  media: Checked,
  rootPath: string | undefined,
): Promise<FileError | undefined> {
  if (media.status !== 'present' || media.width === null) return plain(notProbed());
  let st: Stats;
  try {
    st = await checkFs.run(
      () => statOfOpenSync(media.path),
      () => statOfOpen(media.path),
    );
  } catch (err) {
    return plain(openError(err));
  }
  const same =
    st.isFile() &&
    st.size === media.size &&
    st.mtimeMs === media.mtimeMs &&
    (media.fileId ? fileIdOf(st) === media.fileId : await insideRoot(media.path, rootPath));
  return same ? undefined : plain(replaced());
}

const plain = ({ code, message }: FileError): FileError => ({ code, message });

/**
 * checkMedia, and a small file's bytes (≤ maxBytes) read on the descriptor it checked, while the
 * disk is fast: the upload sends exactly the file checked, and opens it once, not twice (an open,
 * a stat and a close less per photo). Otherwise (large, slow disk) checkMedia alone: no bytes.
 */
export async function checkAndReadMedia(
  media: Checked,
  rootPath: string | undefined,
  maxBytes: number,
): Promise<FileError | { bytes?: Buffer }> {
  if (!checkFs.synchronous || media.size > maxBytes || !media.fileId)
    return (await checkMedia(media, rootPath)) ?? {};
  if (media.status !== 'present' || media.width === null) return plain(notProbed());
  let read: { st: Stats; bytes?: Buffer };
  try {
    read = await checkFs.run(
      () => readOpenSync(media.path, media.size),
      async () => ({ st: await statOfOpen(media.path) }),
    );
  } catch (err) {
    return plain(openError(err));
  }
  const { st, bytes } = read;
  const same =
    st.isFile() &&
    st.size === media.size &&
    st.mtimeMs === media.mtimeMs &&
    fileIdOf(st) === media.fileId;
  if (!same) return plain(replaced());
  return bytes ? { bytes } : {};
}

/** Its stat, and its bytes when it still has `size` of them (read in full, or none). */
function readOpenSync(file: string, size: number): { st: Stats; bytes?: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== size) return { st };
    const bytes = Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n === 0) return { st };
      at += n;
    }
    return { st, bytes };
  } finally {
    closeSync(fd);
  }
}

function statOfOpenSync(file: string): Stats {
  const fd = openSync(file, 'r');
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function statOfOpen(file: string): Promise<Stats> {
  const handle = await open(file, 'r');
  try {
    return await handle.stat();
  } finally {
    await handle.close();
  }
}

async function insideRoot(file: string, rootPath: string | undefined): Promise<boolean> {
  if (rootPath === undefined) return false;
  const [real, root] = await Promise.all([realpath(file), realpath(rootPath)]).catch(() => []);
  if (real === undefined || root === undefined) return false;
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

const refused = (code: string, message: string) => ({ ok: false as const, code, message });
const notProbed = () =>
  refused(
    'not_probed',
    'This file was not read successfully as an image or a clip, so it is not opened.',
  );
const replaced = () =>
  refused(
    'file_replaced',
    'The file is no longer the one that was scanned (changed, or a link now leads elsewhere); rescan the folder.',
  );
const openError = (err: unknown) =>
  (err as NodeJS.ErrnoException).code === 'ENOENT'
    ? refused('not_found', 'The file no longer exists.')
    : refused('unreadable_file', 'The file cannot be opened now.');
