/**
 * `exportLibrary`: streams labelled items into one of five formats. Nothing is built in memory
 * beyond one item and a write chunk; the output appears under `out` only when complete (a temp
 * file or folder beside it is renamed at the end), so a failed or cancelled export leaves nothing.
 *
 * One rule for every format: an existing file or non-empty folder at `out` is refused unless
 * `replace` is set. Even then a folder is replaced only if it holds a previous LabelDesk export
 * (its marker file says so): `--force` must never delete a folder of someone's photos.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { mediaDisplayedSize } from './box-geometry.js';
import type { CocoKnown } from './coco-known.js';
import { CocoResultsWriter } from './coco-results-writer.js';
import { CocoWriter } from './coco-writer.js';
import type { DetectionRow } from '../store/store-types.js';
import { CsvWriter } from './csv-writer.js';
import { EventsWriter } from './events-writer.js';
import {
  isStream,
  type ExportFormat,
  type ExportProgress,
  type ExportSummary,
  type FormatWriter,
  type ItemRows,
  type WritableItem,
} from './export-model.js';
import {
  checkExportTarget,
  EXPORT_FORMATS,
  EXPORT_MARKER,
  ExportTargetError,
  FOLDER_FORMATS,
  isExportFolder,
} from './export-target.js';
import { MotWriter } from './mot-writer.js';
import { VocWriter } from './voc-writer.js';
import { YoloWriter } from './yolo-writer.js';

export type { ExportFormat, ExportProgress, ExportSummary } from './export-model.js';
export { checkExportTarget, EXPORT_FORMATS, EXPORT_MARKER, ExportTargetError };

export interface ExportOptions {
  items: Iterable<WritableItem> | AsyncIterable<WritableItem>;
  format: ExportFormat;
  /** A file for coco/csv/events; a folder for yolo/voc/mot (absent or empty: never mixed with other files). */
  out: string;
  /** The solution's class list from the catalog: class ids follow it; unknown labels come after. */
  classes?: readonly string[];
  /** Replace an existing file, or a folder holding a previous export (see the module comment). */
  replace?: boolean;
  /** COCO `file_name`s are relative to this folder (default: the folder of `out`). */
  imageRoot?: string;
  /** What a COCO import kept (ids, fields), for coco and coco-results. */
  coco?: CocoKnown;
  /** coco-results: the model's own boxes of a result. */
  modelBoxes?: (resultId: number) => readonly DetectionRow[];
  /** coco-results: leave out model boxes scored below this (a box without a score stays). */
  minScore?: number;
  /** Called every 1,000 items and once at the end. */
  onProgress?: (progress: ExportProgress) => void;
  signal?: AbortSignal;
}

const PROGRESS_EVERY = 1000;

export async function exportLibrary(options: ExportOptions): Promise<ExportSummary> {
  const { format, signal } = options;
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`unknown export format: ${String(format)}`);
  const out = resolve(options.out);
  const folder = FOLDER_FORMATS.has(format);
  await checkExportTarget(out, format, options.replace ?? false);
  await mkdir(dirname(out), { recursive: true });
  // Beside the target so the final rename stays on one file system (and so is atomic).
  const temp = join(dirname(out), `.${basename(out)}.${randomBytes(4).toString('hex')}.partial`);
  if (folder) await mkdir(temp);

  const progress: ExportProgress = { files: 0, boxes: 0, skipped: 0 };
  let writer: FormatWriter | undefined;
  try {
    signal?.throwIfAborted();
    writer = await openWriter(format, temp, options, options.imageRoot ?? dirname(out));
    for await (const item of options.items) {
      signal?.throwIfAborted();
      const size = mediaDisplayedSize(item.media, item.result);
      if (!writer.accepts(item.media.kind) || !size) {
        progress.skipped++;
      } else {
        progress.boxes += await writer.add({
          media: item.media,
          size,
          detections: abortable(item.detections, signal),
          resultId: item.result.id,
        });
        progress.files++;
      }
      if ((progress.files + progress.skipped) % PROGRESS_EVERY === 0) {
        options.onProgress?.({ ...progress });
      }
    }
    signal?.throwIfAborted();
    const names = await writer.finish();
    writer = undefined;
    if (folder) {
      const marker = { format, createdAt: new Date().toISOString() };
      await writeFile(join(temp, EXPORT_MARKER), `${JSON.stringify(marker)}\n`, { flag: 'wx' });
      names.push(EXPORT_MARKER);
    }
    await commit(temp, out, folder);
    options.onProgress?.({ ...progress });
    return { ...progress, written: folder ? names.map((n) => join(out, n)) : [out] };
  } catch (error) {
    await writer?.abort().catch(() => undefined);
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** A streamed clip takes seconds to write: quitting stops it between its boxes too. */
function abortable(rows: ItemRows, signal: AbortSignal | undefined): ItemRows {
  if (!signal || !isStream(rows)) return rows;
  return {
    frameOrdered: true,
    *[Symbol.iterator]() {
      let n = 0;
      for (const row of rows) {
        if (++n % 1024 === 0) signal.throwIfAborted();
        yield row;
      }
    },
  };
}

async function openWriter(
  format: ExportFormat,
  target: string,
  options: ExportOptions,
  imageRoot: string,
): Promise<FormatWriter> {
  const { classes, modelBoxes } = options;
  switch (format) {
    case 'coco':
      return new CocoWriter(target, classes, imageRoot, options.coco);
    case 'coco-results':
      return new CocoResultsWriter(
        target,
        classes,
        (item) => (modelBoxes && item.resultId !== undefined ? modelBoxes(item.resultId) : []),
        options.minScore,
        options.coco,
      );
    case 'csv':
      return new CsvWriter(target);
    case 'yolo':
      return YoloWriter.open(target, classes);
    case 'voc':
      return new VocWriter(target);
    case 'mot':
      return new MotWriter(target);
    case 'events':
      return new EventsWriter(target);
  }
}

async function commit(temp: string, out: string, folder: boolean): Promise<void> {
  if (folder) {
    // rename() replaces a file atomically but not a folder. A previous export (checked again
    // here, right before) is moved aside and removed once the new one is in place; anything else
    // must be an empty folder, removed with rmdir, which cannot delete what appeared meanwhile.
    const old = `${temp}.old`;
    const previous = (await isExportFolder(out)) && (await rename(out, old).then(() => true));
    if (!previous) {
      await rmdir(out).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
    await rename(temp, out);
    if (previous) await rm(old, { recursive: true, force: true });
    return;
  }
  await rename(temp, out);
}
