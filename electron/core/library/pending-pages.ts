/** Media rows still needing hashing or probing, a page at a time. */
import type { MediaRecord } from '../store/store-types.js';
import type { LibraryMediaStore } from './media-types.js';

const PAGE = 500;

/**
 * Pages that start small and double up to the usual size: the first results come early (the
 * first page is small enough to be read before the read pool's threads have started).
 */
export const growingPages = (index: number) => Math.min(PAGE, 16 * 2 ** index);

/**
 * Present media still needing this work, in path order, a page at a time. The store filters in
 * SQL (a warm library of 100k files then costs milliseconds here, not a pass over every row);
 * `want` is the same test, kept for stores that ignore `needing`. Only the folders of
 * `only.folderIds` when given. `pageSize` gives each page's size by its index (PAGE by default).
 */
export async function* pendingPages(
  store: LibraryMediaStore,
  needing: 'hash' | 'probe',
  want: (m: MediaRecord) => boolean,
  only: { folderIds?: readonly number[] },
  pageSize: (index: number) => number = () => PAGE,
): AsyncGenerator<MediaRecord[]> {
  // An empty list would mean "every folder" to the store: nothing chosen means nothing to do.
  if (only.folderIds?.length === 0) return;
  // Every file hashed (a warm library, or a scan that read what it found): nothing to list.
  if (needing === 'hash' && !store.media.anyUnhashed()) return;
  const folderIds = only.folderIds;
  let afterPath: string | undefined;
  for (let index = 0; ; index++) {
    const limit = pageSize(index);
    const page = store.media.list({
      limit,
      afterPath,
      needing,
      ...(folderIds ? { folderIds } : {}),
    });
    const todo = page.filter(want);
    if (todo.length) yield todo;
    if (page.length < limit) return;
    afterPath = page[page.length - 1]?.path;
  }
}
