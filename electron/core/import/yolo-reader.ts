/**
 * YOLO (Ultralytics layout): `labels/**.txt` with `class cx cy w h` normalised to the image, names
 * from `data.yaml` or `classes.txt`. LabelDesk's exports add `sources.csv` (label file → image
 * path); without it a label file is matched to an image by its stem. A line that cannot be read
 * spoils only its file; an empty file is a labelled image with no boxes.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { csvRecords } from './csv-parse.js';
import { finite, issue, type ImportedBox, type ReadLabels } from './import-model.js';
import { namesFromClassesTxt, namesFromYaml } from './yolo-class-names.js';

const read = (file: string) => readFile(file, 'utf8').catch(() => undefined);

export async function readYolo(source: string): Promise<ReadLabels> {
  const dir = (await stat(source)).isDirectory() ? source : dirname(source);
  const yaml = await read(join(dir, 'data.yaml'));
  const txt = await read(join(dir, 'classes.txt'));
  const names =
    (yaml !== undefined ? namesFromYaml(yaml) : undefined) ??
    (txt !== undefined ? namesFromClassesTxt(txt) : undefined);
  if (!names) {
    const what = `${basename(dir)} has no data.yaml with names and no classes.txt, so its class ids cannot be named.`;
    return { files: [], issues: [issue(basename(dir), 'unreadable_source', what)] };
  }
  const labelsDir = (await stat(join(dir, 'labels')).catch(() => null))?.isDirectory()
    ? join(dir, 'labels')
    : dir;
  const sources = await sourcesOf(dir);
  const out: ReadLabels = { files: [], issues: [] };
  const entries = await readdir(labelsDir, { recursive: true, withFileTypes: true });
  const texts = entries
    .filter(
      (e) =>
        e.isFile() &&
        e.name.endsWith('.txt') &&
        !(e.parentPath === dir && e.name === 'classes.txt'),
    )
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of texts) {
    const where = relative(dir, file).split(sep).join('/');
    const parsed = parseLabelFile((await read(file)) ?? '', names, where);
    if ('code' in parsed) {
      out.issues.push(parsed);
      continue;
    }
    const stemPath = relative(labelsDir, file).slice(0, -'.txt'.length).split(sep).join('/');
    const listed = sources.get(where);
    out.files.push({
      source: where,
      paths: listed ? [listed] : [],
      name: stemPath,
      stemOnly: true,
      size: null,
      boxes: parsed,
    });
  }
  return out;
}

/** `sources.csv` of a LabelDesk export: label file (relative, `/`) → image path. */
async function sourcesOf(dir: string): Promise<Map<string, string>> {
  const text = await read(join(dir, 'sources.csv'));
  const map = new Map<string, string>();
  if (text === undefined) return map;
  try {
    for (const { fields } of csvRecords(text)) {
      const [label, path] = fields;
      if (label && path && label !== 'label_file') map.set(label, path);
    }
  } catch {
    // An unreadable sources.csv only loses the exact paths: files are matched by stem instead.
  }
  return map;
}

function parseLabelFile(
  text: string,
  names: Map<number, string>,
  where: string,
): ImportedBox[] | ReturnType<typeof issue> {
  const boxes: ImportedBox[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const parts = line.split(/\s+/);
    const values = parts.map((p) => finite(p));
    const [id, cx, cy, w, h] = values;
    const bad = (why: string, code: 'bad_box' | 'unknown_class' | 'malformed' = 'bad_box') =>
      issue(
        where,
        code,
        `${where} line ${i + 1} cannot be read (${why}), so none of its labels were imported.`,
      );
    // A sixth value is a confidence (prediction files); more are segmentation polygons.
    if (parts.length !== 5 && parts.length !== 6)
      return bad('it is not "class cx cy w h"', 'malformed');
    if (id === undefined || !Number.isInteger(id))
      return bad('its class is not a whole number', 'malformed');
    const label = names.get(id);
    if (label === undefined) return bad(`class ${id} has no name`, 'unknown_class');
    if (cx === undefined || cy === undefined || w === undefined || h === undefined)
      return bad('a coordinate is not a number');
    if (!(w > 0 && h > 0)) return bad('the box has no area');
    boxes.push({
      label,
      unit: 'norm',
      x0: cx - w / 2,
      y0: cy - h / 2,
      x1: cx + w / 2,
      y1: cy + h / 2,
      frame: null,
      timeMs: null,
    });
  }
  return boxes;
}
