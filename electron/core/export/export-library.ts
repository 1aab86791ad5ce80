/**
 * `exportLibrary`: streams labelled items into one of five formats. Nothing is built in memory
 * beyond one item and a write chunk; the output appears under `out` only when complete (a temp
 * file or folder beside it is renamed at the end), so a failed or cancelled export leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ExportItem } from '../store/store-types.js';
import { mediaDisplayedSize } from './box-geometry.js';
import { CocoWriter } from './coco-writer.js';
import { CsvWriter } from './csv-writer.js';
import type { ExportFormat, ExportProgress, ExportSummary, FormatWriter } from './export-model.js';
import { MotWriter } from './mot-writer.js';
import { VocWriter } from './voc-writer.js';
import { YoloWriter } from './yolo-writer.js';

export type { ExportFormat, ExportProgress, ExportSummary } from './export-model.js';

export interface ExportOptions {
  items: Iterable<ExportItem> | AsyncIterable<ExportItem>;
  format: ExportFormat;
  /** A file for coco/csv; a folder for yolo/voc/mot (absent or empty: never mixed with other files). */
  out: string;
  /** The solution's class list from the catalog: class ids follow it; unknown labels come after. */
  classes?: readonly string[];
  /** Called every 1,000 items and once at the end. */
  onProgress?: (progress: ExportProgress) => void;
  signal?: AbortSignal;
}

export const EXPORT_FORMATS: readonly ExportFormat[] = ['coco', 'yolo', 'voc', 'csv', 'mot'];
const FOLDER_FORMATS: ReadonlySet<ExportFormat> = new Set(['yolo', 'voc', 'mot']);
const PROGRESS_EVERY = 1000;

export async function exportLibrary(options: ExportOptions): Promise<ExportSummary> {
  const { format, signal } = options;
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`unknown export format: ${String(format)}`);
  const out = resolve(options.out);
  const folder = FOLDER_FORMATS.has(format);
  await checkTarget(out, folder);
  await mkdir(dirname(out), { recursive: true });
  // Beside the target so the final rename stays on one file system (and so is atomic).
  const temp = join(dirname(out), `.${basename(out)}.${randomBytes(4).toString('hex')}.partial`);
  if (folder) await mkdir(temp);

  const progress: ExportProgress = { files: 0, boxes: 0, skipped: 0 };
  let writer: FormatWriter | undefined;
  try {
    signal?.throwIfAborted();
    writer = await openWriter(format, temp, options.classes);
    for await (const item of options.items) {
      signal?.throwIfAborted();
      const size = mediaDisplayedSize(item.media, item.result);
      if (!writer.accepts(item.media.kind) || !size) {
        progress.skipped++;
      } else {
        progress.boxes += await writer.add({
          media: item.media,
          size,
          detections: item.detections,
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
    await commit(temp, out, folder);
    options.onProgress?.({ ...progress });
    return { ...progress, written: folder ? names.map((n) => join(out, n)) : [out] };
  } catch (error) {
    await writer?.abort().catch(() => undefined);
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

async function openWriter(
  format: ExportFormat,
  target: string,
  classes: readonly string[] | undefined,
): Promise<FormatWriter> {
  switch (format) {
    case 'coco':
      return new CocoWriter(target, classes);
    case 'csv':
      return new CsvWriter(target);
    case 'yolo':
      return YoloWriter.open(target, classes);
    case 'voc':
      return new VocWriter(target);
    case 'mot':
      return new MotWriter(target);
  }
}

/** Refuses targets whose replacement could destroy something that is not a previous export file. */
async function checkTarget(out: string, folder: boolean): Promise<void> {
  const info = await stat(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (!info) return;
  if (!folder && info.isDirectory()) throw new Error(`export target is a folder: ${out}`);
  if (folder && !info.isDirectory()) throw new Error(`export target is not a folder: ${out}`);
  if (folder && (await readdir(out)).length > 0) {
    throw new Error(`export folder is not empty: ${out}`);
  }
}

async function commit(temp: string, out: string, folder: boolean): Promise<void> {
  // rename() replaces a file atomically but not a folder, so an empty target folder goes first.
  if (folder)
    await rmdir(out).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  await rename(temp, out);
}
