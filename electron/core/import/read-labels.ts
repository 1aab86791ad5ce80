/** Reads a label source in one of the four formats: a file, or a folder of them. */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readCoco } from './coco-reader.js';
import { readCsvLabels } from './csv-reader.js';
import { issue, type ImportFormat, type ReadLabels } from './import-model.js';
import { readVoc } from './voc-reader.js';
import { readYolo } from './yolo-reader.js';

export async function readLabels(format: ImportFormat, source: string): Promise<ReadLabels> {
  const info = await stat(source).catch(() => null);
  if (!info) {
    const what = `${source} does not exist or cannot be read.`;
    return { files: [], issues: [issue(basename(source), 'unreadable_source', what)] };
  }
  switch (format) {
    case 'yolo':
      return readYolo(source);
    case 'voc':
      return readVoc(source);
    case 'coco':
      return eachFile(source, info.isDirectory(), '.json', readCoco);
    case 'csv':
      return eachFile(source, info.isDirectory(), '.csv', readCsvLabels);
  }
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
