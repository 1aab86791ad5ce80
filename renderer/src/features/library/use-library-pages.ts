/**
 * The grid's data: one `library.page` query per page of 200, only for the pages in view (page 0
 * always, for the total). Invalidation by the events refetches only pages on screen.
 */
import { useQueries } from '@tanstack/react-query';
import type { LibraryFilter, LibraryItem, LibrarySort } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { callKey } from '../../api/use-call.js';
import { PAGE_SIZE, pagesFor } from './grid-geometry.js';

export interface LibraryPages {
  total: number | null;
  item(index: number): LibraryItem | undefined;
  error: unknown;
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
    queries: pages.map((page) => {
      const input = { filter, sort, descending, offset: page * PAGE_SIZE, limit: PAGE_SIZE };
      return {
        queryKey: callKey('library.page', input),
        queryFn: () => api.call('library.page', input),
        // Pages scrolled past are dropped soon: 100k items must not all stay in memory.
        gcTime: 60_000,
      };
    }),
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
