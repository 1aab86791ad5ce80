/** Exports the labelled items of a selection (or the whole library) with the store's streaming reader. */
import { statSync } from 'node:fs';
import path from 'node:path';
import {
  EXPORT_FORMATS,
  exportLibrary,
  type ExportFormat,
  type ExportProgress,
  type ExportSummary,
} from '../core/export/export-library.js';
import type { WritableItem } from '../core/export/export-model.js';
import { joinSolutions } from './export-solutions.js';
import type { Solution } from '../core/runner/cost-estimate.js';
import type { ExportReader } from '../core/store/store-ports.js';
import type { ExportItem, ExportQuery, MediaRecord } from '../core/store/store-types.js';

export { EXPORT_FORMATS, type ExportFormat };

export interface ExportRequest {
  format: ExportFormat;
  out: string;
  /** Undefined: every solution labelled in the scope, their boxes joined per file. */
  solution: Pick<Solution, 'id' | 'classes'> | string | undefined;
  query?: Omit<ExportQuery, 'solution'>;
  /** Replace an existing export (`--force`). */
  replace?: boolean;
  /** Reshapes the stream before writing (e.g. clips into their analysed frames). */
  transform?: (items: Iterable<ExportItem>) => Iterable<WritableItem> | AsyncIterable<WritableItem>;
  onProgress?: (progress: ExportProgress) => void;
  /** Quitting: the export stops and leaves nothing behind (its temp file is removed). */
  signal?: AbortSignal;
}

function* only(
  items: Iterable<ExportItem>,
  ids: ReadonlySet<number> | undefined,
): Generator<ExportItem> {
  for (const item of items) if (!ids || ids.has(item.media.id)) yield item;
}

export function exportSelection(
  store: ExportReader,
  media: readonly MediaRecord[] | undefined,
  request: ExportRequest,
): Promise<ExportSummary> {
  const { solution } = request;
  const solutionId = typeof solution === 'object' ? solution.id : solution;
  const classes = typeof solution === 'object' ? solution.classes : undefined;
  const ids = media ? new Set(media.map((m) => m.id)) : undefined;
  const folderIds = media && new Set(media.map((m) => m.folderId));
  const roots = store.folders.list().filter((f) => !folderIds || folderIds.has(f.id));
  const imageRoot = commonFolder(roots.map((r) => folderOf(r.path)));
  const read = store.exportItems({
    ...request.query,
    ...(solutionId === undefined ? {} : { solution: solutionId }),
  });
  const items = only(solutionId === undefined ? joinSolutions(read) : read, ids);
  const coco = request.format === 'coco' || request.format === 'coco-results';
  const keptFor = solutionId ?? 'objects';
  return exportLibrary({
    ...(coco
      ? {
          coco: {
            images: store.coco.images(),
            dataset: store.coco.dataset(keptFor),
            maxAnnotationId: store.coco.maxAnnotationId(keptFor),
          },
        }
      : {}),
    ...(request.format === 'coco-results'
      ? {
          modelBoxes: (resultId: number) => store.results.detections(resultId),
          ...(request.query?.minScore !== undefined ? { minScore: request.query.minScore } : {}),
        }
      : {}),
    items: request.transform ? request.transform(items) : items,
    format: request.format,
    out: request.out,
    ...(classes ? { classes } : {}),
    ...(request.replace ? { replace: true } : {}),
    ...(imageRoot ? { imageRoot } : {}),
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
}

/** A library root's folder: itself, or for a file added on its own, the folder holding it. */
function folderOf(root: string): string {
  const isFile = (() => {
    try {
      return statSync(root).isFile();
    } catch {
      return false;
    }
  })();
  return isFile ? path.dirname(root) : root;
}

/** The deepest folder holding every one of `folders` (undefined for none). */
export function commonFolder(folders: readonly string[]): string | undefined {
  const [first, ...rest] = folders;
  if (first === undefined) return undefined;
  let common = first;
  for (const f of rest) {
    while (f !== common && !f.startsWith(common.endsWith(path.sep) ? common : common + path.sep)) {
      const up = path.dirname(common);
      if (up === common) break;
      common = up;
    }
  }
  return common;
}
