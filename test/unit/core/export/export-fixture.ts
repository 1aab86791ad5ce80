/**
 * Real media for the export tests: JPEGs made with sharp at known sizes and EXIF orientations
 * (the library stores the file's own size, the boxes are of the oriented image) and an ffmpeg
 * clip, with awkward names and labels; plus the small parsers the tests read exports back with.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type {
  BoxXYWH,
  DetectionRow,
  ExportItem,
  MediaRecord,
} from '../../../../electron/core/store/store-types.js';
import { clip } from '../../../support/synth-media.js';

const run = promisify(execFile);

export const LABELS = {
  person: 'person',
  comma: 'Straße, "the big one"',
  newline: 'two\nlines',
  cjk: '日本語 ラベル',
} as const;
export const CLASSES = ['person', 'car'];

export interface Fixture {
  items: ExportItem[];
  /** Displayed size per media path, read back from the files themselves. */
  truth: Map<string, { width: number; height: number }>;
  images: number;
  clips: number;
  boxes: { images: number; clips: number };
}

let nextId = 1;

function detection(
  label: string,
  bbox: BoxXYWH,
  score: number,
  frame?: { index: number; timeMs: number },
): DetectionRow {
  return {
    id: nextId++,
    resultId: 1,
    frameIndex: frame?.index ?? 0,
    timeMs: frame?.timeMs ?? null,
    label,
    classId: CLASSES.indexOf(label) >= 0 ? CLASSES.indexOf(label) : null,
    score,
    bbox,
    origin: 'model',
    review: 'pending',
  };
}

function item(media: MediaRecord, detections: DetectionRow[]): ExportItem {
  const oriented =
    media.orientation >= 5 ? [media.height!, media.width!] : [media.width!, media.height!];
  // The service analyses a downscaled copy: a writer using these instead of the file's size is wrong.
  const result = {
    id: media.id,
    contentHash: `hash-${media.id}`,
    solution: 'objects',
    serviceUrl: 'http://127.0.0.1',
    analysedWidth: Math.round(oriented[0]! / 2),
    analysedHeight: Math.round(oriented[1]! / 2),
    model: 'centernet',
    boxCount: detections.length,
    createdAt: 0,
  };
  return { media, result, detections };
}

export function mediaRecord(path: string, patch: Partial<MediaRecord> = {}): MediaRecord {
  return {
    id: nextId++,
    folderId: 1,
    path,
    kind: 'image',
    size: 1,
    mtimeMs: 0,
    contentHash: null,
    width: 100,
    height: 50,
    orientation: 1,
    durationMs: null,
    fps: null,
    status: 'present',
    errorCode: null,
    errorMessage: null,
    ...patch,
  };
}

async function image(path: string, width: number, height: number, orientation: number) {
  await writeFile(
    path,
    await sharp({ create: { width, height, channels: 3, background: '#6a8' } })
      .jpeg()
      .withMetadata({ orientation })
      .toBuffer(),
  );
  // What the library would store: the file's own size and orientation, read from the file.
  const m = await sharp(path).metadata();
  return mediaRecord(path, { width: m.width, height: m.height, orientation: m.orientation ?? 1 });
}

export async function buildFixture(dir: string): Promise<Fixture> {
  const media = join(dir, 'media');
  await mkdir(join(media, 'a'), { recursive: true });
  await mkdir(join(media, 'b'), { recursive: true });
  const a = await image(join(media, 'a', 'photo.jpg'), 300, 200, 6);
  const b = await image(join(media, 'b', 'photo.jpg'), 160, 120, 1);
  const c = await image(join(media, 'ünï, "cöde".jpg'), 120, 80, 8);
  const e = await image(join(media, 'empty.jpg'), 64, 48, 1);
  const clipPath = await clip(media, 'clip, one.mp4', 2, '320x240', 10);
  const probe = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    clipPath,
  ]);
  const [cw, ch] = probe.stdout.trim().split(',').map(Number);
  const v = mediaRecord(clipPath, {
    kind: 'video',
    width: cw!,
    height: ch!,
    fps: 10,
    durationMs: 2000,
  });

  const items = [
    item(a, [
      detection(LABELS.person, { x: 0.1, y: 0.2, w: 0.5, h: 0.25 }, 0.91234),
      // Overflows the right edge: must be clamped to the displayed width.
      detection(LABELS.comma, { x: 0.6, y: 0.7, w: 0.5, h: 0.2 }, 0.5),
    ]),
    item(b, [detection(LABELS.cjk, { x: 0.25, y: 0.25, w: 0.5, h: 0.5 }, 0.75)]),
    item(c, [detection(LABELS.newline, { x: 0, y: 0, w: 1, h: 0.5 }, 0.3)]),
    item(e, []),
    // Sampled at 2 per second: sample 2 is at 1 s, i.e. clip frame 10 (MOT frame 11).
    item(v, [
      detection(LABELS.person, { x: 0.5, y: 0.5, w: 0.25, h: 0.25 }, 0.8, {
        index: 2,
        timeMs: 1000,
      }),
      detection(LABELS.person, { x: 0.1, y: 0.1, w: 0.2, h: 0.3 }, 0.6, { index: 0, timeMs: 0 }),
      detection(LABELS.comma, { x: 0.2, y: 0.4, w: 0.1, h: 0.1 }, 0.7, { index: 1, timeMs: 500 }),
    ]),
  ];
  const truth = new Map<string, { width: number; height: number }>();
  for (const m of [a, b, c, e]) truth.set(m.path, await trueDisplayedSize(m.path));
  truth.set(v.path, { width: cw!, height: ch! });
  return { items, truth, images: 4, clips: 1, boxes: { images: 4, clips: 3 } };
}

/** The displayed size straight from the file: sharp's size with EXIF orientation applied. */
export async function trueDisplayedSize(file: string): Promise<{ width: number; height: number }> {
  const m = await sharp(file).metadata();
  const swap = (m.orientation ?? 1) >= 5;
  return swap ? { width: m.height, height: m.width } : { width: m.width, height: m.height };
}

/** Pixel corners the way a reader would compute them from the normalised box: for comparisons. */
export function expectedCorners(bbox: BoxXYWH, size: { width: number; height: number }) {
  const c = (v: number, max: number) => Math.min(max, Math.max(0, v));
  return {
    xmin: c(bbox.x * size.width, size.width),
    ymin: c(bbox.y * size.height, size.height),
    xmax: c((bbox.x + bbox.w) * size.width, size.width),
    ymax: c((bbox.y + bbox.h) * size.height, size.height),
  };
}

/** RFC 4180 reader: quoted fields with doubled quotes, commas and line breaks inside. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') {
      quoted = false;
    } else if (quoted) {
      field += ch;
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function xmlUnescape(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
