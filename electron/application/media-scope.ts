/** The library media a run or an estimate covers: chosen items, chosen folders, or everything. */
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import type { RunScope } from '../shared/contract/index.js';

const PAGE = 2000;

/**
 * Reads the scope a page at a time and yields between pages, so a 100k-file scope does not hold
 * the process that answers the UI for a second.
 */
export async function mediaOfScope(
  store: LibraryStore,
  scope: Omit<RunScope, 'solution'>,
): Promise<MediaRecord[]> {
  if (scope.mediaIds?.length) {
    return scope.mediaIds
      .map((id) => store.media.byId(id))
      .filter((m): m is MediaRecord => m !== undefined && m.status !== 'missing');
  }
  const media: MediaRecord[] = [];
  let afterPath: string | undefined;
  for (;;) {
    // Unreadable files are kept: the plan lists them as refused, with their reason.
    const page = store.media.list({
      includeErrors: true,
      limit: PAGE,
      ...(scope.folderIds?.length ? { folderIds: scope.folderIds } : {}),
      ...(afterPath ? { afterPath } : {}),
    });
    media.push(...page);
    if (page.length < PAGE) return media;
    afterPath = page[page.length - 1]?.path;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
