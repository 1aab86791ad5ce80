/**
 * YOLO (Ultralytics layout): `labels/**.txt` with `class cx cy w h` (or a segmentation polygon)
 * normalised to the image, names from `data.yaml`/`config.yaml` (in the folder given or a few
 * above it, with its splits' folders) or `classes.txt`. LabelDesk's exports add `sources.csv` (label file → image
 * path); without it a label file is matched to an image by its stem. A line that cannot be read
 * spoils only its file; an empty file is a labelled image with no boxes.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { csvRecords } from './csv-parse.js';
import { finite, issue, type ImportedBox, type ReadLabels } from './import-model.js';
import { namesFromClassesTxt, readDatasetYaml, type DatasetYaml } from './yolo-class-names.js';

const read = (file: string) => readFile(file, 'utf8').catch(() => undefined);
const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() === true;

/** The names Ultralytics gives a dataset's description, looked for in this order. */
const YAML_NAMES = ['data.yaml', 'config.yaml'];
/** How many folders above the one given a dataset's YAML may sit (labels/train2017 → its root). */
const YAML_LEVELS_UP = 3;

export async function readYolo(source: string): Promise<ReadLabels> {
  const info = await stat(source);
  const given = info.isDirectory() ? source : dirname(source);
  const yamlFile = /\.ya?ml$/i.test(source) && !info.isDirectory() ? source : await findYaml(given);
  const dataset = yamlFile ? readDatasetYaml((await read(yamlFile)) ?? '') : undefined;
  const txt = await read(join(given, 'classes.txt'));
  const names = dataset?.names ?? (txt !== undefined ? namesFromClassesTxt(txt) : undefined);
  if (!names) {
    const what = `${basename(given)} has no data.yaml (or config.yaml, here or up to ${YAML_LEVELS_UP} folders above) with names and no classes.txt, so its class ids cannot be named.`;
    return { files: [], issues: [issue(basename(given), 'unreadable_source', what)] };
  }
  // Label files are named relative to the dataset's YAML when there is one, as Ultralytics does.
  const dir = yamlFile ? dirname(yamlFile) : given;
  const labelDirs =
    yamlFile && (given === dir || !info.isDirectory())
      ? await splitLabelDirs(dir, dataset)
      : [(await isDir(join(given, 'labels'))) ? join(given, 'labels') : given];
  const sources = await sourcesOf(dir);
  const out: ReadLabels = { files: [], issues: [] };
  for (const labelsDir of labelDirs) {
    for (const file of await labelFiles(labelsDir, dir)) {
      const where = relative(dir, file).split(sep).join('/');
      const parsed = parseLabelFile((await read(file)) ?? '', names, where);
      if ('code' in parsed) {
        out.issues.push(parsed);
        continue;
      }
      const stemPath = relative(labelsDir, file).slice(0, -'.txt'.length).split(sep).join('/');
      const listed = sources.get(where);
      const image = imageStem(file);
      out.files.push({
        source: where,
        paths: listed ? [listed] : [],
        ...(image !== null && !listed ? { pathStem: image } : {}),
        name: stemPath,
        stemOnly: true,
        size: null,
        boxes: parsed,
      });
    }
  }
  return out;
}

/** The dataset's YAML in `dir` or a few folders above it, as Ultralytics finds it. */
async function findYaml(dir: string): Promise<string | undefined> {
  let at = resolve(dir);
  for (let level = 0; level <= YAML_LEVELS_UP; level++) {
    for (const name of YAML_NAMES) {
      const file = join(at, name);
      if ((await stat(file).catch(() => null))?.isFile()) return file;
    }
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  return undefined;
}

/**
 * The label folders of a dataset's splits: each split's image folder with its last `images`
 * folder read as `labels` (Ultralytics' rule), relative to `path`, itself relative to the YAML.
 * Without splits that exist, the dataset's `labels/` folder, else its root.
 */
async function splitLabelDirs(
  yamlDir: string,
  dataset: DatasetYaml | undefined,
): Promise<string[]> {
  const root = dataset?.path ? resolve(yamlDir, dataset.path) : yamlDir;
  const dirs: string[] = [];
  for (const split of dataset?.splits ?? []) {
    // Roboflow writes `../train/images` for a train/ beside the YAML; Ultralytics then drops the `../`.
    const tries = split.startsWith('../') ? [split, split.slice(3)] : [split];
    for (const t of tries) {
      const labels = labelsFor(isAbsolute(t) ? t : resolve(root, t));
      if (!labels || !(await isDir(labels))) continue;
      if (!dirs.includes(labels)) dirs.push(labels);
      break;
    }
  }
  if (dirs.length > 0) return dirs;
  for (const base of [root, yamlDir]) {
    if (await isDir(join(base, 'labels'))) return [join(base, 'labels')];
  }
  return [yamlDir];
}

/** A path with its last `images` folder read as `labels`; null when it has none. */
function labelsFor(imagesPath: string): string | null {
  const parts = imagesPath.split(sep);
  const at = parts.lastIndexOf('images');
  if (at < 0) return null;
  parts[at] = 'labels';
  return parts.join(sep);
}

/** Where Ultralytics expects a label file's image: its last `labels` folder read as `images`. */
function imageStem(labelFile: string): string | null {
  const parts = resolve(labelFile).slice(0, -'.txt'.length).split(sep);
  const at = parts.lastIndexOf('labels');
  if (at < 0 || at === parts.length - 1) return null;
  parts[at] = 'images';
  return parts.join(sep);
}

/** The `.txt` label files under a folder, in path order (a folder's own classes.txt is not one). */
async function labelFiles(labelsDir: string, dir: string): Promise<string[]> {
  const entries = await readdir(labelsDir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (e) =>
        e.isFile() &&
        e.name.endsWith('.txt') &&
        !(e.name === 'classes.txt' && (e.parentPath === dir || e.parentPath === labelsDir)),
    )
    .map((e) => join(e.parentPath, e.name))
    .sort();
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
    // A sixth value is a confidence (prediction files); an odd count from 7 on is a segmentation
    // polygon (class x1 y1 … xn yn), read as its bounding box as Ultralytics does.
    const polygon = parts.length >= 7 && parts.length % 2 === 1;
    if (parts.length !== 5 && parts.length !== 6 && !polygon)
      return bad(
        'it is not "class cx cy w h" nor a polygon "class x1 y1 x2 y2 x3 y3 …"',
        'malformed',
      );
    if (id === undefined || !Number.isInteger(id))
      return bad('its class is not a whole number', 'malformed');
    const label = names.get(id);
    if (label === undefined) return bad(`class ${id} has no name`, 'unknown_class');
    if (polygon) {
      const box = polygonBox(values.slice(1));
      if (box === null) return bad('a coordinate is not a number');
      if (!(box.x1 > box.x0 && box.y1 > box.y0)) return bad('the polygon has no area');
      boxes.push({ label, unit: 'norm', ...box, frame: null, timeMs: null });
      continue;
    }
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

/** The bounding box of a polygon's x, y pairs; null when a value is not a number. */
function polygonBox(
  xy: (number | undefined)[],
): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i];
    const y = xy[i + 1];
    if (x === undefined || y === undefined) return null;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return { x0, y0, x1, y1 };
}
