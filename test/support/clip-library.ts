/** A library with one clip in it, for tests of the review calls on clips. */
import type { LibraryStore } from '../../electron/core/store/store-types.js';

/** Adds `/lib/<name>` (a clip of `contentHash`) in a folder `/lib`; answers its media id. */
export function addClip(
  store: LibraryStore,
  clip: {
    name: string;
    contentHash: string;
    width: number;
    height: number;
    fps: number;
    durationMs: number;
  },
): number {
  const folder = store.folders.add('/lib');
  const { name, ...rest } = clip;
  const [id] = store.media.upsertMany([
    {
      folderId: folder.id,
      path: `/lib/${name}`,
      kind: 'video',
      size: 1,
      mtimeMs: 1,
      orientation: 1,
      ...rest,
    },
  ]);
  return id ?? -1;
}
