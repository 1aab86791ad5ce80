/** Reads a label source in one of the four formats: a file, or a folder of them. */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { issue, type ImportFormat, type ReadLabels } from './import-model.js';
import { batchesOf, type LabelBatches } from './label-batches.js';

export async function readLabels(format: ImportFormat, source: string): Promise<ReadLabels> {
  const info = await stat(source).catch(() => null);
  if (!info) {
    const what = `${source} does not exist or cannot be read.`;
    return { files: [], issues: [issue(basename(source), 'unreadable_source', what)] };
  }
  // Only the format's own reader is loaded: all four (YOLO's YAML parser above all) took
  // 250-400 ms of the reading thread's start, which the import waits for.
  switch (format) {
    case 'yolo':
      return (await import('./yolo-reader.js')).readYolo(source);
    case 'voc':
      return (await import('./voc-reader.js')).readVoc(source);
    case 'coco': {
      const { readCoco } = await import('./coco-reader.js');
      return eachFile(source, info.isDirectory(), '.json', readCoco);
    }
    case 'csv': {
      const { readCsvLabels } = await import('./csv-reader.js');
      return eachFile(source, info.isDirectory(), '.csv', readCsvLabels);
    }
  }
}

/** What the reading thread sends of a source: its files in batches, their boxes packed. */
export async function readLabelBatches(
  format: ImportFormat,
  source: string,
): Promise<LabelBatches> {
  // A single COCO file keeps its boxes in columns as it reads them, never an object each
  // (coco-box-columns.ts); a folder of them is read file by file as objects.
  if (format === 'coco' && (await stat(source).catch(() => null))?.isFile()) {
    return (await import('./coco-reader.js')).readCocoBatches(source);
  }
  return batchesOf(await readLabels(format, source));
}

/** A single-file format given a folder: every file of that kind directly in it. */
async function eachFile(
  source: string,
  folder: boolean,
  extension: string,
  read: (file: string) => Promise<ReadLabels>,
): Promise<ReadLabels> {
  if (!folder) return read(source);
  const names = (await readdir(source)).filter((n) => n.toLowerCase().endsWith(extension)).sort();
  const out: ReadLabels = { files: [], issues: [] };
  for (const name of names) {
    const r = await read(join(source, name));
    out.files.push(...r.files);
    out.issues.push(...r.issues);
    // Several COCO files: the first one's info and licenses, every file's categories.
    if (r.coco) {
      out.coco = out.coco
        ? { ...out.coco, categories: [...out.coco.categories, ...r.coco.categories] }
        : r.coco;
    }
  }
  if (names.length === 0) {
    const what = `${basename(source)} holds no ${extension} file to import.`;
    out.issues.push(issue(basename(source), 'unreadable_source', what));
  }
  return out;
}
