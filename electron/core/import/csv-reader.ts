/**
 * CSV as LabelDesk exports it (and as most tools write boxes): a header naming at least `path`,
 * `label`, `xmin`, `ymin`, `xmax`, `ymax` in pixels; `width` and `height` (checked against the file)
 * and, for clips, `frame` and `timeMs` when present; `iscrowd` 1 marks a crowd region. Rows of one file may be anywhere; one bad row
 * spoils only its file.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { csvText } from '../export/text-escape.js';
import { csvRecords, type CsvRecord } from './csv-parse.js';
import {
  boxProblem,
  finite,
  issue,
  type ImportedBox,
  type ImportedFile,
  type ReadLabels,
} from './import-model.js';

const REQUIRED = ['path', 'label', 'xmin', 'ymin', 'xmax', 'ymax'] as const;

export async function readCsvLabels(csvFile: string): Promise<ReadLabels> {
  const name = basename(csvFile);
  let records: CsvRecord[];
  try {
    records = [...csvRecords(await readFile(csvFile, 'utf8'))];
  } catch (err) {
    return {
      files: [],
      issues: [
        issue(name, 'unreadable_source', `${name} cannot be read: ${(err as Error).message}.`),
      ],
    };
  }
  const header = records.shift()?.fields.map((f) => f.trim()) ?? [];
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length) {
    const what = `${name} has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''} in its header.`;
    return { files: [], issues: [issue(name, 'unreadable_source', what)] };
  }
  const col = (c: string) => header.indexOf(c);
  const at = { path: col('path'), width: col('width'), height: col('height'), label: col('label') };
  const corners = [col('xmin'), col('ymin'), col('xmax'), col('ymax')] as const;
  const frameCol = col('frame');
  const timeCol = col('timeMs');
  const crowdCol = col('iscrowd');
  const out: ReadLabels = { files: [], issues: [] };
  const byPath = new Map<string, ImportedFile>();
  const spoiled = new Set<string>();
  const optional = (fields: string[], c: number) => (c < 0 ? undefined : finite(fields[c] ?? ''));
  for (const { line, fields } of records) {
    const where = `${name} line ${line}`;
    const path = csvText(fields[at.path] ?? '');
    if (path === '') {
      out.issues.push(issue(where, 'malformed', `${where} names no file.`));
      continue;
    }
    if (spoiled.has(path)) continue;
    let file = byPath.get(path);
    if (!file) {
      const width = optional(fields, at.width);
      const height = optional(fields, at.height);
      file = {
        source: `${name} ${path}`,
        paths: isAbsolute(path) ? [path] : [join(dirname(csvFile), path)],
        name: path,
        stemOnly: false,
        size: width && height ? { width, height } : null,
        boxes: [],
      };
      byPath.set(path, file);
    }
    const [x0, y0, x1, y1] = corners.map((c) => finite(fields[c] ?? '') ?? NaN) as [
      number,
      number,
      number,
      number,
    ];
    const label = csvText(fields[at.label] ?? '');
    const frame = optional(fields, frameCol) ?? null;
    const timeMs = optional(fields, timeCol) ?? null;
    const box: ImportedBox = { label, unit: 'px', x0, y0, x1, y1, frame, timeMs };
    if (optional(fields, crowdCol) === 1) box.crowd = true;
    const problem = label === '' ? 'it has no label' : boxProblem(box);
    if (problem) {
      spoiled.add(path);
      byPath.delete(path);
      const what = `${path}: ${where} cannot be read (${problem}), so none of its labels were imported.`;
      out.issues.push(issue(file.source, label === '' ? 'malformed' : 'bad_box', what));
      continue;
    }
    file.boxes.push(box);
  }
  out.files = [...byPath.values()];
  return out;
}
