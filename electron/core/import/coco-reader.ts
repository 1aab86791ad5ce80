/**
 * COCO detection JSON: `images` (id, file_name, width, height; our exports add absolute_path and
 * info.image_root), `annotations` (image_id, category_id, bbox [x, y, w, h] in pixels) and
 * `categories` (id, name). An annotation that cannot be read spoils only its image.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { CocoBoxColumns } from './coco-box-columns.js';
import { otherFields, type CocoKeptDataset } from './coco-kept.js';
import type { HeldFile } from './held-file.js';
import {
  boxProblem,
  finite,
  issue,
  type ImportedFile,
  type ImportIssue,
  type ReadLabels,
} from './import-model.js';
import { readObjectInChunks } from './json-chunks.js';
import { batchesOf, type LabelBatches } from './label-batches.js';
import { unpackBoxes } from './packed-boxes.js';

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
  iscrowd?: unknown;
}
interface CocoDoc {
  info?: { image_root?: unknown };
  licenses?: unknown;
  images?: unknown;
  /** Annotations a chunk at a time (see json-chunks.ts); null when they are not an array. */
  annotations: (() => Iterable<unknown[]>) | null;
  /** Annotation `i`'s text as the file gives it (see json-chunks.ts). */
  annotationText: ((i: number) => string) | null;
  categories?: unknown;
}

/** Annotations parsed per chunk: fewer live at once, less for the collector to copy. */
const CHUNK = 4096;

export async function readCoco(file: string): Promise<ReadLabels> {
  const read = await readCocoFile(file);
  return 'kept' in read ? withBoxes(read) : read;
}

/** A COCO file for the reading thread to send (read-labels-worker.ts). */
export async function readCocoBatches(file: string): Promise<LabelBatches> {
  const read = await readCocoFile(file);
  return 'kept' in read ? inBatches(read) : batchesOf(read);
}

/** The file read, or only its issue when it cannot be read as COCO. */
async function readCocoFile(file: string): Promise<CocoRead | ReadLabels> {
  const name = basename(file);
  const unreadable = (err: unknown): ReadLabels => {
    const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
    return {
      files: [],
      issues: [issue(name, 'unreadable_source', `${name} cannot be read: ${why}.`)],
    };
  };
  let doc: CocoDoc | null;
  try {
    doc = parseCoco(await readFile(file, 'utf8'));
  } catch (err) {
    return unreadable(err);
  }
  if (!doc || !Array.isArray(doc.images) || !doc.annotations) {
    const what = `${name} is not a COCO file: it has no "images" and "annotations" arrays.`;
    return { files: [], issues: [issue(name, 'unreadable_source', what)] };
  }
  try {
    return fromDoc(doc, name, dirname(file));
  } catch (err) {
    // The annotations are validated as their chunks are parsed: a broken one spoils the source.
    if (err instanceof SyntaxError) return unreadable(err);
    throw err;
  }
}

/** The document's parts, or null when it is valid JSON but not an object. */
function parseCoco(text: string): CocoDoc | null {
  if (!text.trimStart().startsWith('{')) {
    // Valid JSON that is not an object is no COCO file; invalid JSON throws as it should.
    JSON.parse(text);
    return null;
  }
  // Annotations that are not an array are parsed (so still validated) but give no chunks.
  const { members, chunks, elementText } = readObjectInChunks(text, 'annotations', CHUNK);
  return {
    info: members.get('info') as CocoDoc['info'],
    licenses: members.get('licenses'),
    images: members.get('images'),
    annotations: chunks,
    annotationText: elementText,
    categories: members.get('categories'),
  };
}

/** A name with nothing for `join` to resolve ('.', '..', doubled or trailing slashes). */
const PLAIN = /^(?!\.{1,2}(\/|$))(?!.*\/\.{1,2}(\/|$))(?!.*\/\/)[^\\]*[^/\\]$/;

/** A last path segment `join` leaves as it is. */
const PLAIN_BASE = /^(?!\.{1,2}$)[^/\\]+$/;

/**
 * `join(folder, name)` for many names, without normalising what needs none: three paths for each
 * of 100k images cost 0.4 s of `join`. A name to normalise ('../../data/cam-0/f.jpg') has its
 * folder joined once for all the names in it: `join` appends a plain last segment to the joined
 * rest as it is, unless that rest is '/' or '.' or ends in a slash.
 */
function joinerOf(folder: string): (name: string) => string {
  const posix = sep === '/';
  const plain = posix && folder === normalize(folder) && !folder.endsWith('/');
  const folders = new Map<string, string>();
  return (name) => {
    if (plain && PLAIN.test(name)) return `${folder}/${name}`;
    const slash = name.lastIndexOf('/');
    const base = name.slice(slash + 1);
    if (!posix || slash <= 0 || !PLAIN_BASE.test(base)) return join(folder, name);
    const within = name.slice(0, slash);
    let joined = folders.get(within);
    if (joined === undefined) {
      joined = join(folder, within);
      folders.set(within, joined);
    }
    return joined === '.' || joined.endsWith('/') ? join(folder, name) : `${joined}/${base}`;
  };
}

function categoryNames(doc: CocoDoc): Map<number, string> {
  const names = new Map<number, string>();
  for (const c of Array.isArray(doc.categories) ? (doc.categories as unknown[]) : []) {
    const { id, name } = (c ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id === 'number' && typeof name === 'string') names.set(id, name);
  }
  return names;
}

/** The dataset's fields to give back: info (less our own image_root), licenses, category ids. */
function keptDataset(doc: CocoDoc): CocoKeptDataset {
  const categories: CocoKeptDataset['categories'] = [];
  for (const c of Array.isArray(doc.categories) ? (doc.categories as unknown[]) : []) {
    const { id, name } = (c ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id !== 'number' || typeof name !== 'string') continue;
    categories.push({ label: name, id, extra: otherFields(c as object, ['id', 'name']) });
  }
  const info =
    doc.info && typeof doc.info === 'object' ? otherFields(doc.info, ['image_root']) : null;
  return { info, licenses: doc.licenses ?? null, categories };
}

const IMAGE_OWN = ['id', 'file_name', 'width', 'height', 'absolute_path'];

/** A file read, its boxes still in the columns (`boxCount` set once all are read). */
type CocoFile = Omit<HeldFile, 'packed' | 'firstBox'>;

/** What a COCO file gives: its files (spoiled ones included, marked) and their boxes. */
interface CocoRead {
  files: CocoFile[];
  /** The files not spoiled by a bad annotation, by number: the ones to give back. */
  kept: number[];
  boxes: CocoBoxColumns;
  issues: ImportIssue[];
  coco: CocoKeptDataset;
}

/** Where an annotation is, for its issue (made only for one: a million annotations). */
const annotationAt = (name: string, i: number) => `${name} annotations[${i}]`;

function fromDoc(doc: CocoDoc, name: string, dir: string): CocoRead {
  const files: CocoFile[] = [];
  const issues: ImportIssue[] = [];
  const categories = categoryNames(doc);
  const root = typeof doc.info?.image_root === 'string' ? doc.info.image_root : null;
  const inRoot = root && isAbsolute(root) ? joinerOf(root) : null;
  const inDir = joinerOf(dir);
  const inImages = joinerOf(join(dir, 'images'));
  const byId = new Map<unknown, number>();
  (doc.images as unknown[]).forEach((raw, i) => {
    const img = (raw ?? {}) as CocoImage;
    const width = finite(img.width);
    const height = finite(img.height);
    const where = `${name} images[${i}]`;
    if (typeof img.file_name !== 'string' || img.file_name === '' || img.id === undefined) {
      issues.push(issue(where, 'malformed', `${where} has no file_name or id.`));
      return;
    }
    if (byId.has(img.id)) {
      issues.push(issue(where, 'duplicate_entry', `${where} repeats image id ${String(img.id)}.`));
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
    byId.set(img.id, files.length);
    files.push({
      source: `${name} image ${String(img.id)}`,
      paths,
      name: img.file_name,
      stemOnly: false,
      size: width && height ? { width, height } : null,
      coco: { imageId: img.id, extra: otherFields(img, IMAGE_OWN) },
      boxCount: 0,
    });
  });
  const boxes = new CocoBoxColumns(files.length);
  const spoiled = new Uint8Array(files.length);
  let i = -1;
  for (const chunk of doc.annotations?.() ?? []) {
    for (const raw of chunk) {
      i++;
      annotation(raw, i);
    }
    boxes.endChunk();
  }
  const kept: number[] = [];
  for (let f = 0; f < files.length; f++) {
    const file = files[f] as CocoFile;
    file.boxCount = boxes.boxCount(f);
    if (!spoiled[f]) kept.push(f);
  }
  return { files, kept, boxes, issues, coco: keptDataset(doc) };

  function annotation(raw: unknown, i: number): void {
    const a = (raw ?? {}) as CocoAnnotation;
    const f = byId.get(a.image_id);
    if (f === undefined) {
      const what = `${annotationAt(name, i)} names image ${String(a.image_id)}, which the file does not list.`;
      issues.push(issue(annotationAt(name, i), 'malformed', what));
      return;
    }
    if (spoiled[f]) return;
    const label = typeof a.category_id === 'number' ? categories.get(a.category_id) : undefined;
    // Read in place: a million annotations, so no copied array or object each.
    const bbox = Array.isArray(a.bbox) && a.bbox.length === 4 ? (a.bbox as unknown[]) : null;
    const x = bbox ? finite(bbox[0]) : undefined;
    const y = bbox ? finite(bbox[1]) : undefined;
    const x0 = x ?? NaN;
    const y0 = y ?? NaN;
    const x1 = (x ?? NaN) + (bbox ? (finite(bbox[2]) ?? NaN) : NaN);
    const y1 = (y ?? NaN) + (bbox ? (finite(bbox[3]) ?? NaN) : NaN);
    const problem =
      label === undefined
        ? `its category ${String(a.category_id)} is not in "categories"`
        : bbox === null
          ? 'its bbox is not [x, y, width, height]'
          : boxProblem({ x0, y0, x1, y1 });
    if (problem || label === undefined || bbox === null) {
      spoiled[f] = 1;
      const file = files[f] as CocoFile;
      const code = label === undefined ? 'unknown_class' : 'bad_box';
      const what = `${file.name}: ${annotationAt(name, i)} cannot be read (${problem}), so none of its labels were imported.`;
      issues.push(issue(file.source, code, what));
      return;
    }
    const crowd = a.iscrowd === 1 || a.iscrowd === true;
    // Kept as the file gives it (see coco-kept.ts): its own text, sliced, not written anew.
    const kept = doc.annotationText?.(i) ?? JSON.stringify(raw);
    boxes.add(f, x0, y0, x1, y1, label, crowd, kept);
  }
}

/** The files read, each with its boxes as objects (a folder of COCO files, tests). */
function withBoxes(read: CocoRead): ReadLabels {
  const packed = read.boxes.pack(read.kept);
  let first = 0;
  const files = read.kept.map((f): ImportedFile => {
    const { boxCount, ...file } = read.files[f] as CocoFile;
    const boxes = unpackBoxes(packed, first, boxCount);
    first += boxCount;
    return { ...file, boxes };
  });
  return { files, issues: read.issues, coco: read.coco };
}

/** The files read, sent a batch at a time with their boxes packed straight from the columns. */
function inBatches(read: CocoRead): LabelBatches {
  return {
    count: read.kept.length,
    issues: read.issues,
    coco: read.coco,
    batch(from, to) {
      const some = read.kept.slice(from, to);
      return {
        json: JSON.stringify(some.map((f) => read.files[f])),
        boxes: read.boxes.pack(some),
      };
    },
  };
}
