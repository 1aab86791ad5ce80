/**
 * Reads what `labeldesk export` wrote back into one shape, the way a training script would:
 * COCO JSON, CSV, YOLO label files, Pascal VOC XML and MOTChallenge text.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One box in pixels of the displayed image (YOLO: normalised 0–1, `width`/`height` are 1). */
export interface ReadBox {
  path: string;
  label: string;
  score: number | null;
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  /** The image (or clip) size the file states. */
  width: number;
  height: number;
  /** MOT and CSV rows of clips: the frame number (MOT from 1, CSV from 0). */
  frame?: number;
  /** MOT: the track id. */
  track?: number;
}

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** CSV rows as objects keyed by the header. */
function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

export interface CocoFile {
  images: {
    id: number;
    file_name: string;
    absolute_path: string;
    width: number;
    height: number;
  }[];
  annotations: {
    id: number;
    image_id: number;
    category_id: number;
    bbox: [number, number, number, number];
    score: number;
  }[];
  categories: { id: number; name: string }[];
}

export async function readCoco(file: string): Promise<{ doc: CocoFile; boxes: ReadBox[] }> {
  const doc = JSON.parse(await readFile(file, 'utf8')) as CocoFile;
  const images = new Map(doc.images.map((i) => [i.id, i]));
  const names = new Map(doc.categories.map((c) => [c.id, c.name]));
  const boxes = doc.annotations.map((a) => {
    const image = images.get(a.image_id);
    if (!image) throw new Error(`annotation ${a.id} names no image`);
    const [x, y, w, h] = a.bbox;
    return {
      path: image.absolute_path,
      label: names.get(a.category_id) ?? `#${a.category_id}`,
      score: a.score,
      xmin: x,
      ymin: y,
      xmax: x + w,
      ymax: y + h,
      width: image.width,
      height: image.height,
    };
  });
  return { doc, boxes };
}

export async function readCsv(file: string): Promise<ReadBox[]> {
  return csvObjects(await readFile(file, 'utf8')).map((r) => ({
    path: r['path'] as string,
    label: r['label'] as string,
    score: Number(r['score']),
    xmin: Number(r['xmin']),
    ymin: Number(r['ymin']),
    xmax: Number(r['xmax']),
    ymax: Number(r['ymax']),
    width: Number(r['width']),
    height: Number(r['height']),
    ...(r['frame'] ? { frame: Number(r['frame']) } : {}),
  }));
}

/** YOLO boxes, normalised (width = height = 1); `files` maps each label file to its image. */
export async function readYolo(
  dir: string,
): Promise<{ boxes: ReadBox[]; files: Map<string, string> }> {
  const classes = (await readFile(join(dir, 'classes.txt'), 'utf8')).split('\n').filter(Boolean);
  const files = new Map(
    csvObjects(await readFile(join(dir, 'sources.csv'), 'utf8')).map((r) => [
      r['label_file'] as string,
      r['path'] as string,
    ]),
  );
  const boxes: ReadBox[] = [];
  for (const [labelFile, path] of files) {
    const text = await readFile(join(dir, labelFile), 'utf8');
    for (const line of text.split('\n').filter(Boolean)) {
      const [cls, cx, cy, w, h] = line.split(' ').map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      boxes.push({
        path,
        label: classes[cls] ?? `#${cls}`,
        score: null,
        xmin: cx - w / 2,
        ymin: cy - h / 2,
        xmax: cx + w / 2,
        ymax: cy + h / 2,
        width: 1,
        height: 1,
      });
    }
  }
  return { boxes, files };
}

const tag = (xml: string, name: string): string => {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  if (!m) throw new Error(`<${name}> missing`);
  return m[1] as string;
};

export async function readVoc(dir: string): Promise<ReadBox[]> {
  const boxes: ReadBox[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.xml'))) {
    const xml = await readFile(join(dir, name), 'utf8');
    const path = tag(xml, 'path');
    const width = Number(tag(xml, 'width'));
    const height = Number(tag(xml, 'height'));
    // Pixel edges from 0: the devkit (and our export) counts xmin and ymin from 1.
    const from1 = tag(xml, 'database') === 'LabelDesk' ? 0 : 1;
    for (const [object] of xml.matchAll(/<object>[\s\S]*?<\/object>/g)) {
      boxes.push({
        path,
        label: tag(object, 'name'),
        score: Number(tag(object, 'score')),
        xmin: Number(tag(object, 'xmin')) - from1,
        ymin: Number(tag(object, 'ymin')) - from1,
        xmax: Number(tag(object, 'xmax')),
        ymax: Number(tag(object, 'ymax')),
        width,
        height,
      });
    }
  }
  return boxes;
}

/** MOT boxes (no labels in the format: `label` is the track id). */
export async function readMot(dir: string): Promise<ReadBox[]> {
  const boxes: ReadBox[] = [];
  const classes = (await readFile(join(dir, 'classes.txt'), 'utf8')).split('\n');
  for (const source of csvObjects(await readFile(join(dir, 'sources.csv'), 'utf8'))) {
    const text = await readFile(join(dir, source['file'] as string), 'utf8');
    for (const line of text.split('\n').filter(Boolean)) {
      const [frame, id, left, top, w, h, conf, cls] = line.split(',').map(Number) as number[];
      boxes.push({
        path: source['path'] as string,
        label: classes[cls as number] ?? String(cls),
        track: id as number,
        score: conf ?? null,
        xmin: left as number,
        ymin: top as number,
        xmax: (left as number) + (w as number),
        ymax: (top as number) + (h as number),
        width: Number(source['width']),
        height: Number(source['height']),
        frame: frame as number,
      });
    }
  }
  return boxes;
}
