/** Exports the labelled items of a selection (or the whole library) with the store's streaming reader. */
import {
  EXPORT_FORMATS,
  exportLibrary,
  type ExportFormat,
  type ExportSummary,
} from '../core/export/export-library.js';
import type { Solution } from '../core/runner/cost-estimate.js';
import type {
  ExportItem,
  ExportQuery,
  LibraryStore,
  MediaRecord,
} from '../core/store/store-types.js';

export { EXPORT_FORMATS, type ExportFormat };

export interface ExportRequest {
  format: ExportFormat;
  out: string;
  solution: Pick<Solution, 'id' | 'classes'> | string;
  query?: Omit<ExportQuery, 'solution'>;
}

function* only(
  items: Iterable<ExportItem>,
  ids: ReadonlySet<number> | undefined,
): Generator<ExportItem> {
  for (const item of items) if (!ids || ids.has(item.media.id)) yield item;
}

export function exportSelection(
  store: LibraryStore,
  media: readonly MediaRecord[] | undefined,
  request: ExportRequest,
): Promise<ExportSummary> {
  const solutionId = typeof request.solution === 'string' ? request.solution : request.solution.id;
  const classes = typeof request.solution === 'string' ? undefined : request.solution.classes;
  const ids = media ? new Set(media.map((m) => m.id)) : undefined;
  return exportLibrary({
    items: only(store.exportItems({ ...request.query, solution: solutionId }), ids),
    format: request.format,
    out: request.out,
    ...(classes ? { classes } : {}),
  });
}
