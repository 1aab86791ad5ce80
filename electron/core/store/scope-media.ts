/** The library media a run or an estimate covers: chosen items, chosen folders, or everything. */
import type { MediaReader } from './store-ports.js';
import type { MediaRecord } from './store-types.js';

export interface MediaScope {
  folderIds?: readonly number[] | undefined;
  mediaIds?: readonly number[] | undefined;
}

const PAGE = 2000;

/**
 * The scope a page at a time, in path order (unreadable files included: a plan lists them as
 * refused, with their reason). Callers on a UI's thread yield between pages.
 */
export function* scopePages(store: MediaReader, scope: MediaScope): Generator<MediaRecord[]> {
  if (scope.mediaIds?.length) {
    yield scope.mediaIds
      .map((id) => store.media.byId(id))
      .filter((m): m is MediaRecord => m !== undefined && m.status !== 'missing');
    return;
  }
  let afterPath: string | undefined;
  for (;;) {
    const page = store.media.list({
      includeErrors: true,
      limit: PAGE,
      ...(scope.folderIds?.length ? { folderIds: scope.folderIds } : {}),
      ...(afterPath ? { afterPath } : {}),
    });
    yield page;
    if (page.length < PAGE) return;
    afterPath = page[page.length - 1]?.path;
  }
}
