/** The library media a run or an estimate covers: chosen items, chosen folders, or everything. */
import type { LibraryStore, MediaRecord } from '../core/store/store-types.js';
import type { RunScope } from '../shared/contract/index.js';

const PAGE = 2000;

export function mediaOfScope(
  store: LibraryStore,
  scope: Omit<RunScope, 'solution'>,
): MediaRecord[] {
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
  }
}
