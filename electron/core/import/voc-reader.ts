/**
 * Pascal VOC: one XML per image (`filename`, `path`, `size`, and `object`s with `name` and
 * `bndbox`). The VOC devkit counts pixels from 1 with xmax inclusive, so its box covers
 * xmin − 1 … xmax; LabelDesk's exports do the same. Older LabelDesk exports (source database
 * exactly "LabelDesk") wrote pixel edges from 0 and are read as written. A `difficult` object is
 * read as a crowd region: the devkit's evaluation ignores it as COCO ignores a crowd region.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import {
  boxProblem,
  finite,
  issue,
  type ImportedBox,
  type ImportedFile,
  type ReadLabels,
} from './import-model.js';
import { childrenNamed, childText, findBelow, parseXml } from './xml-tree.js';

export async function readVoc(source: string): Promise<ReadLabels> {
  const info = await stat(source);
  const files = info.isDirectory() ? await xmlFiles(source) : [source];
  const root = info.isDirectory() ? source : dirname(source);
  const out: ReadLabels = { files: [], issues: [] };
  for (const file of files) {
    const where = relative(root, file) || basename(file);
    let xml: string;
    try {
      xml = await readFile(file, 'utf8');
    } catch (err) {
      out.issues.push(
        issue(where, 'unreadable_source', `${where} cannot be read: ${(err as Error).message}.`),
      );
      continue;
    }
    const parsed = fromXml(xml, where, dirname(file));
    if ('code' in parsed) out.issues.push(parsed);
    else out.files.push(parsed);
  }
  return out;
}

async function xmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.xml'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function fromXml(xml: string, where: string, dir: string): ImportedFile | ReturnType<typeof issue> {
  const doc = parseXml(xml);
  if ('error' in doc) {
    const what = `${where} is not well-formed XML (${doc.error}), so none of its labels were imported.`;
    return issue(where, 'malformed', what);
  }
  const annotation = doc.name === 'annotation' ? doc : findBelow(doc, 'annotation', 'object');
  const head = (tag: string) => annotation && findBelow(annotation, tag, 'object')?.text.trim();
  const filename = head('filename');
  if (annotation === undefined || !filename) {
    return issue(
      where,
      'malformed',
      `${where} is not a VOC annotation (no <annotation> with a <filename>).`,
    );
  }
  const zeroBased = head('database') === 'LabelDesk';
  const size = findBelow(annotation, 'size', 'object');
  const width = finite(childText(size, 'width'));
  const height = finite(childText(size, 'height'));
  const path = head('path');
  const boxes: ImportedBox[] = [];
  for (const [i, object] of childrenNamed(annotation, 'object').entries()) {
    const label = childText(object, 'name') ?? '';
    const b = findBelow(object, 'bndbox', 'part');
    const [xmin, ymin, xmax, ymax] = ['xmin', 'ymin', 'xmax', 'ymax'].map(
      (t) => finite(childText(b, t)) ?? NaN,
    ) as [number, number, number, number];
    const shift = zeroBased ? 0 : 1;
    const box = { x0: xmin - shift, y0: ymin - shift, x1: xmax, y1: ymax };
    const problem = label === '' ? 'it has no name' : boxProblem(box);
    if (problem) {
      const what = `${filename}: object ${i + 1} of ${where} cannot be read (${problem}), so none of its labels were imported.`;
      return issue(where, label === '' ? 'malformed' : 'bad_box', what);
    }
    const read: ImportedBox = { label, unit: 'px', ...box, frame: null, timeMs: null };
    if (finite(childText(object, 'difficult')) === 1) read.crowd = true;
    boxes.push(read);
  }
  const paths = path && isAbsolute(path) ? [path] : [];
  paths.push(join(dir, filename));
  return {
    source: where,
    paths,
    name: filename,
    stemOnly: false,
    size: width && height ? { width, height } : null,
    boxes,
  };
}
