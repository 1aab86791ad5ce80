/**
 * `export.start`: the export dialog's one call. Streams the corrected boxes of a scope (all, the
 * library's current filter, or a selection) to disk with the CLI's rules (an existing target is
 * refused unless `replace`, and a folder only if it holds a previous export), and emits progress.
 * Needs only the library: it works with no service reachable. Closing aborts the exports under
 * way (each removes its temp file; the target is untouched) and waits for them.
 */
import { isAbsolute, join, dirname, basename, extname } from 'node:path';
import type { ExportReader, MediaReader, SettingsReader } from '../core/store/store-ports.js';
import type { MediaRecord } from '../core/store/store-types.js';
import {
  LabelDeskError,
  type EventPayload,
  type ExportScope,
  type Handlers,
  type LibraryFilter,
} from '../shared/contract/index.js';
import { carriesClipFrames, carriesInterpolation, runExport } from './export-use-case.js';
import { ExportEmptyError } from './export-solutions.js';

export interface ExportDeps {
  store: ExportReader & MediaReader & SettingsReader;
  /** Ids of the items matching a library filter. */
  idsOf(filter: LibraryFilter): Promise<number[]>;
  /** The catalog's class list for a solution (class ids follow it), when known. */
  classesOf(solution: string): readonly string[] | undefined;
  progress(payload: EventPayload<'export.progress'>): void;
}

const MAX_SCOPE = 200_000;

/** Beside the export: `coco.json` → `coco-frames/`, `yolo/` → `yolo-frames/`. */
export function framesDirFor(destination: string): string {
  return join(dirname(destination), `${basename(destination, extname(destination))}-frames`);
}

async function scopeMedia(
  deps: ExportDeps,
  scope: ExportScope,
): Promise<readonly MediaRecord[] | undefined> {
  if (scope.kind === 'all') return undefined;
  const ids = scope.kind === 'selection' ? scope.ids : await deps.idsOf(scope.filter);
  if (ids.length >= MAX_SCOPE) {
    throw new LabelDeskError(
      'scope_too_large',
      'Export everything instead: the scope is too large.',
    );
  }
  return ids.flatMap((id) => {
    const m = deps.store.media.byId(id);
    return m ? [m] : [];
  });
}

export function exportHandlers(deps: ExportDeps): {
  handlers: Pick<Handlers, 'export.start'>;
  close(): Promise<void>;
} {
  const quitting = new AbortController();
  const running = new Set<Promise<unknown>>();
  const handlers: Pick<Handlers, 'export.start'> = {
    'export.start': async (q) => {
      if (!isAbsolute(q.destination)) {
        throw new LabelDeskError('bad_destination', 'The destination must be an absolute path.');
      }
      if (q.clipFrames && !carriesClipFrames(q.format)) {
        throw new LabelDeskError('bad_option', 'Clips as frames works with COCO, YOLO and VOC.');
      }
      if (q.interpolate === true && !carriesInterpolation(q.format, q.clipFrames)) {
        throw new LabelDeskError(
          'bad_option',
          'Interpolated frames work with MOT, CSV, or clips as frames.',
        );
      }
      const media = await scopeMedia(deps, q.scope);
      const total = media ? media.length : null;
      const destination = q.destination;
      const framesDir = q.clipFrames ? framesDirFor(destination) : null;
      deps.progress({ destination, files: 0, boxes: 0, skipped: 0, total, done: false });
      const exporting = runExport(deps.store, media, {
        format: q.format,
        out: destination,
        solution: q.solution,
        catalogClasses: deps.classesOf(q.solution),
        onlyAccepted: q.onlyAccepted,
        minScore: q.minScore,
        classes: q.classes,
        replace: q.replace,
        byPerson: q.onlyAccepted && q.byPerson,
        framesDir,
        interpolate: q.interpolate,
        onProgress: (p) => deps.progress({ destination, ...p, total, done: false }),
        signal: quitting.signal,
      });
      running.add(exporting);
      const summary = await exporting
        .catch((err: unknown) => {
          // The dialog shows the sentence: which solutions and filters hold the boxes.
          if (err instanceof ExportEmptyError) throw new LabelDeskError(err.code, err.message);
          throw err;
        })
        .finally(() => running.delete(exporting));
      const { files, boxes, skipped, written } = summary;
      deps.progress({ destination, files, boxes, skipped, total, done: true });
      return { destination, files, boxes, skipped, written, framesDir };
    },
  };
  return {
    handlers,
    async close() {
      quitting.abort(new Error('closing'));
      await Promise.allSettled([...running]);
    },
  };
}
