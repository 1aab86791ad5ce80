/**
 * The export use-case shared by `export.start` and `labeldesk export`: which formats can carry
 * clips as frames, which class names a service knows, and how an order becomes the store's query.
 * Callers keep their own wording for refusals (a contract error, or a CLI usage line).
 */
import { withClipFrames } from '../core/review/clip-frames.js';
import { withInterpolatedFrames } from '../core/review/interpolated-frames.js';
import type { ExportSummary } from '../core/export/export-library.js';
import { checkExportTarget, ExportTargetError } from './export-target.js';
import type { CatalogPort, ExportReader, SettingsReader } from '../core/store/store-ports.js';
import type { ExportItem, MediaRecord } from '../core/store/store-types.js';
import { SOLUTIONS } from '../local-service/solutions.js';
import { latestStoredCatalog } from '../core/service/adapter/stored-catalog.js';
import { exportSelection, type ExportFormat, type ExportRequest } from './export-selection.js';
import { storedMinScore } from './library-min-score.js';
import { refuseEmptyExport } from './export-solutions.js';

/** Refuses, before anything is spent, an export target that would only fail at the end. */
export { checkExportTarget, ExportTargetError };

const CLIP_FRAME_FORMATS: ReadonlySet<string> = new Set(['coco', 'yolo', 'voc']);

export function carriesClipFrames(format: string): boolean {
  return CLIP_FRAME_FORMATS.has(format);
}

/** Interpolated frames need an output that writes a clip's frames: MOT, CSV, or clips as frames. */
export function carriesInterpolation(format: string, clipFrames: boolean): boolean {
  return format === 'mot' || format === 'csv' || (clipFrames && carriesClipFrames(format));
}

export interface ExportOrder {
  format: ExportFormat;
  out: string;
  /** Undefined: every solution labelled in the scope (see export-solutions.ts). */
  solution: string | undefined;
  /** The catalog's class list for the solution (class ids follow it), when known. */
  catalogClasses?: readonly string[] | undefined;
  onlyAccepted?: boolean | undefined;
  /** With onlyAccepted: leave out boxes accepted by an auto-accept rule. */
  byPerson?: boolean | undefined;
  /** Boxes scored below this are dropped; absent: the library's minimum score; 0 keeps all. */
  minScore?: number | undefined;
  /** Only these labels. */
  classes?: readonly string[] | undefined;
  replace?: boolean | undefined;
  /** Clips' analysed frames are written here as JPEGs and exported as images. */
  framesDir?: string | null | undefined;
  /** Every frame of each clip at its own rate, tracks interpolated between their boxes. */
  interpolate?: boolean | undefined;
  onProgress?: ExportRequest['onProgress'];
  signal: AbortSignal;
}

/** Streams the boxes of `media` (or the whole library) as the order asks. */
export function runExport(
  store: ExportReader & SettingsReader,
  media: readonly MediaRecord[] | undefined,
  order: ExportOrder,
): Promise<ExportSummary> {
  const { framesDir, catalogClasses, signal } = order;
  const minScore = order.minScore ?? storedMinScore(store);
  const interpolated = order.interpolate
    ? (items: Iterable<ExportItem>) => withInterpolatedFrames(items)
    : (items: Iterable<ExportItem>) => items;
  const query = {
    ...(order.onlyAccepted ? { onlyAccepted: true } : {}),
    ...(order.byPerson ? { byPerson: true } : {}),
    ...(minScore > 0 ? { minScore } : {}),
    ...(order.classes ? { classes: [...order.classes] } : {}),
  };
  try {
    refuseEmptyExport(store, media, {
      ...query,
      ...(order.solution === undefined ? {} : { solution: order.solution }),
    });
  } catch (err) {
    return Promise.reject(err as Error);
  }
  return exportSelection(store, media, {
    format: order.format,
    out: order.out,
    solution:
      catalogClasses && order.solution !== undefined
        ? { id: order.solution, classes: [...catalogClasses] }
        : order.solution,
    ...(order.replace ? { replace: true } : {}),
    ...(framesDir
      ? { transform: (items) => withClipFrames(interpolated(items), { dir: framesDir, signal }) }
      : order.interpolate
        ? { transform: interpolated }
        : {}),
    query,
    ...(order.onProgress ? { onProgress: order.onProgress } : {}),
    signal,
  });
}

type KnownSolutions = readonly { id: string; classes?: readonly string[] }[];

/** The solutions in the catalog last cached for a service, if any. */
export function cachedSolutions(
  store: CatalogPort,
  serviceUrl: string,
): KnownSolutions | undefined {
  return latestStoredCatalog(store.catalog, serviceUrl)?.solutions;
}

/**
 * The names in `wanted` that no solution of the service has: its cached catalog, or for the
 * embedded service its own list when nothing is cached. A hosted service never seen: none.
 */
export function unknownClasses(
  wanted: readonly string[],
  cached: KnownSolutions | undefined,
  embedded: boolean,
): string[] {
  const solutions = cached ?? (embedded ? SOLUTIONS : undefined);
  if (!solutions) return [];
  const known = new Set(solutions.flatMap((s) => s.classes ?? []));
  return wanted.filter((c) => !known.has(c));
}
