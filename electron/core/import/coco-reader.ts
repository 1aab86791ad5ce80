/**
 * COCO detection JSON: `images` (id, file_name, width, height; our exports add absolute_path and
 * info.image_root), `annotations` (image_id, category_id, bbox [x, y, w, h] in pixels) and
 * `categories` (id, name). An annotation that cannot be read spoils only its image.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { boxProblem, finite, issue, type ImportedFile, type ReadLabels } from './import-model.js';

interface CocoImage {
  id?: unknown;
  file_name?: unknown;
  width?: unknown;
  height?: unknown;
  absolute_path?: unknown;
}
interface CocoAnnotation {
  image_id?: unknown;
  category_id?: unknown;
  bbox?: unknown;
}
interface CocoDoc {
  info?: { image_root?: unknown };
  images?: unknown;
  annotations?: unknown;
  categories?: unknown;
}

export async function readCoco(file: string): Promise<ReadLabels> {
  const name = basename(file);
  let doc: CocoDoc;
  try {
    doc = JSON.parse(await readFile(file, 'utf8')) as CocoDoc;
  } catch (err) {
    const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
    return {
      files: [],
      issues: [issue(name, 'unreadable_source', `${name} cannot be read: ${why}.`)],
    };
  }
  if (!doc || !Array.isArray(doc.images) || !Array.isArray(doc.annotations)) {
    const what = `${name} is not a COCO file: it has no "images" and "annotations" arrays.`;
    return { files: [], issues: [issue(name, 'unreadable_source', what)] };
  }
  return fromDoc(doc, name, dirname(file));
}

/** A name with nothing for `join` to resolve ('.', '..', doubled or trailing slashes). */
const PLAIN = /^(?!\.{1,2}(\/|$))(?!.*\/\.{1,2}(\/|$))(?!.*\/\/)[^\\]*[^/\\]$/;

/**
 * `join(folder, name)` for many names, without normalising what needs none: three paths for each
 * of 100k images cost 0.4 s of `join`.
 */
function joinerOf(folder: string): (name: string) => string {
  const plain = sep === '/' && folder === normalize(folder) && !folder.endsWith('/');
  return (name) => (plain && PLAIN.test(name) ? `${folder}/${name}` : join(folder, name));
}

function categoryNames(doc: CocoDoc): Map<number, string> {
  const names = new Map<number, string>();
  for (const c of Array.isArray(doc.categories) ? (doc.categories as unknown[]) : []) {
    const { id, name } = (c ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id === 'number' && typeof name === 'string') names.set(id, name);
  }
  return names;
}

function fromDoc(doc: CocoDoc, name: string, dir: string): ReadLabels {
  const out: ReadLabels = { files: [], issues: [] };
  const categories = categoryNames(doc);
  const root = typeof doc.info?.image_root === 'string' ? doc.info.image_root : null;
  const inRoot = root && isAbsolute(root) ? joinerOf(root) : null;
  const inDir = joinerOf(dir);
  const inImages = joinerOf(join(dir, 'images'));
  const byId = new Map<unknown, ImportedFile>();
  const spoiled = new Set<ImportedFile>();
  (doc.images as unknown[]).forEach((raw, i) => {
    const img = (raw ?? {}) as CocoImage;
    const width = finite(img.width);
    const height = finite(img.height);
    const where = `${name} images[${i}]`;
    if (typeof img.file_name !== 'string' || img.file_name === '' || img.id === undefined) {
      out.issues.push(issue(where, 'malformed', `${where} has no file_name or id.`));
      return;
    }
    if (byId.has(img.id)) {
      out.issues.push(
        issue(where, 'duplicate_entry', `${where} repeats image id ${String(img.id)}.`),
      );
      return;
    }
    const paths: string[] = [];
    if (typeof img.absolute_path === 'string' && isAbsolute(img.absolute_path)) {
      paths.push(img.absolute_path);
    }
    if (isAbsolute(img.file_name)) paths.push(img.file_name);
    else {
      if (inRoot) paths.push(inRoot(img.file_name));
      paths.push(inDir(img.file_name), inImages(img.file_name));
    }
    const file: ImportedFile = {
      source: `${name} image ${String(img.id)}`,
      paths,
      name: img.file_name,
      stemOnly: false,
      size: width && height ? { width, height } : null,
      boxes: [],
    };
    byId.set(img.id, file);
    out.files.push(file);
  });
  (doc.annotations as unknown[]).forEach((raw, i) => {
    const a = (raw ?? {}) as CocoAnnotation;
    const file = byId.get(a.image_id);
    const where = `${name} annotations[${i}]`;
    if (!file) {
      const what = `${where} names image ${String(a.image_id)}, which the file does not list.`;
      out.issues.push(issue(where, 'malformed', what));
      return;
    }
    if (spoiled.has(file)) return;
    const label = typeof a.category_id === 'number' ? categories.get(a.category_id) : undefined;
    // Read in place: a million annotations, so no copied array or spread object each.
    const bbox = Array.isArray(a.bbox) && a.bbox.length === 4 ? (a.bbox as unknown[]) : null;
    const x = bbox ? finite(bbox[0]) : undefined;
    const y = bbox ? finite(bbox[1]) : undefined;
    const box = {
      label: label ?? '',
      unit: 'px' as const,
      x0: x ?? NaN,
      y0: y ?? NaN,
      x1: (x ?? NaN) + (bbox ? (finite(bbox[2]) ?? NaN) : NaN),
      y1: (y ?? NaN) + (bbox ? (finite(bbox[3]) ?? NaN) : NaN),
      frame: null,
      timeMs: null,
    };
    const problem =
      label === undefined
        ? `its category ${String(a.category_id)} is not in "categories"`
        : bbox === null
          ? 'its bbox is not [x, y, width, height]'
          : boxProblem(box);
    if (problem) {
      spoiled.add(file);
      const code = label === undefined ? 'unknown_class' : 'bad_box';
      const what = `${file.name}: ${where} cannot be read (${problem}), so none of its labels were imported.`;
      out.issues.push(issue(file.source, code, what));
      return;
    }
    file.boxes.push(box);
  });
  out.files = out.files.filter((f) => !spoiled.has(f));
  return out;
}
