/**
 * The grid's data: one `library.page` query per page of 200, only for the pages in view (page 0
 * always, for the total). Invalidation by the events refetches only pages on screen.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type {
  LabelDeskApi,
  LibraryFilter,
  LibraryItem,
  LibrarySort,
} from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { callKey } from '../../api/use-call.js';
import { PAGE_SIZE, pagesFor } from './grid-geometry.js';

export interface LibraryPages {
  total: number | null;
  item(index: number): LibraryItem | undefined;
  error: unknown;
}

/** One page's query, the same whoever asks for it first (the grid or the screen at start). */
function pageQuery(
  api: LabelDeskApi,
  filter: LibraryFilter,
  sort: LibrarySort,
  descending: boolean,
  page: number,
) {
  const input = { filter, sort, descending, offset: page * PAGE_SIZE, limit: PAGE_SIZE };
  return {
    queryKey: callKey('library.page', input),
    queryFn: () => api.call('library.page', input),
    // Pages scrolled past are dropped soon: 100k items must not all stay in memory.
    gcTime: 60_000,
  };
}

/**
 * Asks for the grid's first page at once while `early` (the grid is not shown yet: it waits for
 * app.info), during render, so it goes out ahead of the screen's other start-up calls and the
 * view thread answers it before their heavier counts; the grid then finds it in the cache.
 */
export function useFirstPageEarly(
  early: boolean,
  filter: LibraryFilter,
  sort: LibrarySort,
  descending: boolean,
): void {
  const { api } = useApiHandle();
  const client = useQueryClient();
  if (!early) return;
  const query = pageQuery(api, filter, sort, descending, 0);
  if (!client.getQueryState(query.queryKey)) void client.prefetchQuery(query);
}

export function useLibraryPages(
  filter: LibraryFilter,
  sort: LibrarySort,
  descending: boolean,
  first: number,
  last: number,
): LibraryPages {
  const { api } = useApiHandle();
  const pages = [...new Set([0, ...pagesFor(first, last)])];
  const results = useQueries({
    queries: pages.map((page) => pageQuery(api, filter, sort, descending, page)),
  });
  const byPage = new Map<number, LibraryItem[]>();
  let total: number | null = null;
  let error: unknown = null;
  results.forEach((r, i) => {
    const page = pages[i];
    if (r.data && page !== undefined) {
      byPage.set(page, r.data.items);
      total ??= r.data.total;
    }
    if (r.error) error = r.error;
  });
  return {
    total,
    error,
    item: (index) => byPage.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
  };
}
