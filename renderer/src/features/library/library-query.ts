/** The contract's filter for the current view (the debounced search included). */
import type { LibraryFilter } from '../../../../electron/shared/contract/index.js';
import type { LibraryFilters } from './library-state.js';

export function toLibraryFilter(
  f: LibraryFilters,
  solution: string,
  search: string,
): LibraryFilter {
  const filter: LibraryFilter = { solution };
  if (f.folderId !== null) filter.folderIds = [f.folderId];
  if (f.kind) filter.kind = f.kind;
  if (f.status) filter.status = f.status;
  if (f.label) filter.label = f.label;
  if (f.minScore > 0) filter.minScore = f.minScore;
  if (f.review) filter.review = f.review;
  if (f.conflicts) filter.conflicts = true;
  if (search.trim()) filter.search = search.trim();
  return filter;
}
