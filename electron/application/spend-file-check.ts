/**
 * `doctor --spend` sends one file the person names: before anything is sent it passes the checks
 * `label` applies to every file (a regular file by its link's target, its type sniffed by the
 * probe rather than trusted from the name), and it is sent only while its path still leads to the
 * file that was probed (media-identity.ts: a link swapped in between is refused). So a
 * `shadow.jpg` link to /etc/shadow, or a text file named `.jpg`, is never sent.
 */
import { stat } from 'node:fs/promises';
import type { MediaKind } from '../core/store/store-types.js';
import { checkMedia } from '../core/library/media-identity.js';
import { probeMedia } from '../core/library/probe-media.js';
import { fileIdOf } from '../core/library/stat-later.js';
import { UsageError } from './usage-error.js';

/** Throws a UsageError (nothing sent) unless `file` is a readable media file of `kind`;
 *  resolves with the check to run again just before sending. */
export async function checkFileToSpend(
  file: string,
  kind: MediaKind,
): Promise<() => Promise<void>> {
  const st = await stat(file).catch((err: unknown) => {
    throw new UsageError(`${file} cannot be read: ${(err as Error).message}`);
  });
  if (!st.isFile()) throw new UsageError(`${file} was not sent: it is not a regular file.`);
  const probed = await probeMedia(file, kind);
  if (!probed.ok) {
    throw new UsageError(`${file} was not sent: ${probed.message} (${probed.code}).`);
  }
  const identity = {
    path: file,
    size: st.size,
    mtimeMs: st.mtimeMs,
    width: probed.info.width,
    status: 'present' as const,
    fileId: fileIdOf(st),
    errorCode: null,
  };
  return async () => {
    const why = await checkMedia(identity, undefined);
    if (why) throw new UsageError(`${file} was not sent: ${why.message} (${why.code}).`);
  };
}
