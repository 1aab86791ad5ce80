/**
 * What may be a library folder: an absolute path to a folder that is not the whole disk, and that
 * neither lies inside nor holds another library folder (one file, one row). Each refusal is one
 * sentence with its own code.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderRow } from '../store/store-types.js';
import { directoriesOnly } from './library-roots.js';
import { isInside } from './path-within.js';

/** A folder that cannot be a library folder; `code` says why. */
export class FolderRefusal extends Error {
  override readonly name = 'FolderRefusal';
  constructor(
    readonly code: 'relative_path' | 'whole_disk' | 'not_a_folder' | 'overlapping_folder',
    message: string,
  ) {
    super(message);
  }
}

/** The absolute folder path, or a refusal; a path that does not exist throws its ENOENT. */
export async function checkedFolder(folderPath: string): Promise<string> {
  if (!path.isAbsolute(folderPath)) {
    throw new FolderRefusal(
      'relative_path',
      `"${folderPath}" is a relative path; give the folder's full path (starting with ${path.sep}).`,
    );
  }
  const abs = path.resolve(folderPath);
  if (abs === path.parse(abs).root) {
    throw new FolderRefusal(
      'whole_disk',
      `${abs} is the whole disk, not a library folder; add the folder that holds your media.`,
    );
  }
  const st = await stat(abs);
  if (!st.isDirectory()) {
    throw new FolderRefusal(
      'not_a_folder',
      `${abs} is not a folder; add the folder that holds it (a file is labelled on its own with labeldesk label).`,
    );
  }
  return abs;
}

/** Refuses a folder inside an existing library folder, or holding one (a folder on disk). */
export async function refuseOverlap(abs: string, existing: readonly FolderRow[]): Promise<void> {
  const inside = existing.filter((f) => isInside(f.path, abs));
  const overlap = existing.find((f) => isInside(abs, f.path)) ?? (await directoriesOnly(inside))[0];
  if (!overlap) return;
  throw new FolderRefusal(
    'overlapping_folder',
    isInside(abs, overlap.path)
      ? `${abs} is inside the library folder ${overlap.path}, which already holds its files.`
      : `${abs} holds the library folder ${overlap.path}; remove that one first to add the whole of ${abs}.`,
  );
}
