/**
 * Clips as training data for image formats (COCO, YOLO, VOC): each analysed frame that has boxes
 * is written as a JPEG (one ffmpeg per clip, selecting exactly those frames) and exported as an
 * image item with its corrected boxes. Streaming: one clip's frames are extracted at a time, and
 * its boxes are read frame by frame (an interpolated clip's are never all in memory).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { mediaDisplayedSize } from '../export/box-geometry.js';
import { clipFrame, inFrameOrder, type WritableItem } from '../export/export-model.js';
import { resolveTool } from '../library/tool-paths.js';
import type { DetectionRow } from '../store/store-types.js';

export interface ClipFramesOptions {
  /** Where the frames go: `<dir>/<clip stem>-<hash>/frame-<n>.jpg` (n: the clip's frame from 0). */
  dir: string;
  ffmpegPath?: string;
  /** Quitting: the ffmpeg at work is killed and the export stops. */
  signal?: AbortSignal;
}

/** Passes images through; turns each clip into one image item per analysed frame with boxes. */
export async function* withClipFrames(
  items: Iterable<WritableItem> | AsyncIterable<WritableItem>,
  options: ClipFramesOptions,
): AsyncGenerator<WritableItem> {
  for await (const item of items) {
    if (item.media.kind !== 'video') {
      yield item;
      continue;
    }
    yield* clipFrameItems(item, options);
  }
}

/**
 * Two passes over the clip's boxes in frame order (an interpolated clip's are made again on the
 * second): the frames that have boxes, for one ffmpeg, then one image item per frame written.
 */
async function* clipFrameItems(
  item: WritableItem,
  options: ClipFramesOptions,
): AsyncGenerator<WritableItem> {
  const size = mediaDisplayedSize(item.media, item.result);
  const rows = inFrameOrder(item.detections, item.media.fps);
  const frames: number[] = [];
  for (const d of rows) {
    const n = clipFrame(d, item.media.fps);
    if (n !== frames.at(-1)) frames.push(n);
  }
  if (!size || frames.length === 0) return;
  const stem = basename(item.media.path, extname(item.media.path)).replace(/[^\w.-]+/g, '_');
  const tag = createHash('sha256').update(item.media.path).digest('hex').slice(0, 8);
  const folder = join(options.dir, `${stem}-${tag}`);
  await mkdir(folder, { recursive: true });
  const files = await extractFrames(item.media.path, frames, folder, options);
  const media = {
    ...item.media,
    kind: 'image' as const,
    width: size.width,
    height: size.height,
    orientation: 1,
    durationMs: null,
    fps: null,
  };
  let i = 0;
  let boxes: DetectionRow[] = [];
  const frameItem = (): WritableItem[] => {
    const path = files[i++];
    return path ? [{ media: { ...media, path }, result: item.result, detections: boxes }] : [];
  };
  for (const d of rows) {
    if (boxes.length > 0 && clipFrame(d, item.media.fps) !== frames[i]) {
      yield* frameItem();
      boxes = [];
    }
    boxes.push(d);
  }
  yield* frameItem();
}

/**
 * Runs of consecutive frames as [first, last]: an interpolated export selects every frame of a
 * track, and one `between` per run keeps ffmpeg's expression short (it is evaluated per frame).
 */
export function frameRanges(frames: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of frames) {
    const run = out.at(-1);
    if (run && n === run[1] + 1) run[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** Writes the given 0-based frames as JPEGs named by frame; returns their paths in that order. */
async function extractFrames(
  file: string,
  frames: readonly number[],
  folder: string,
  options: ClipFramesOptions,
): Promise<(string | undefined)[]> {
  const ffmpeg = await resolveTool('ffmpeg', options.ffmpegPath);
  const select = frameRanges(frames)
    .map(([a, b]) => (a === b ? `eq(n\\,${a})` : `between(n\\,${a}\\,${b})`))
    .join('+');
  const args = [
    '-v',
    'error',
    '-nostdin',
    '-i',
    file,
    '-vf',
    `select='${select}'`,
    '-fps_mode',
    'passthrough',
    '-q:v',
    '2',
    '-y',
    join(folder, 'sel-%06d.jpg'),
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(ffmpeg, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(options.signal ? { signal: options.signal, killSignal: 'SIGKILL' as const } : {}),
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg could not read ${file}: ${err.trim()}`)),
    );
  });
  // ffmpeg numbers the selected frames 1, 2, … in order; name them by the clip's frame instead.
  const written = new Set(await readdir(folder));
  const out: (string | undefined)[] = [];
  for (const [i, n] of frames.entries()) {
    const sel = `sel-${String(i + 1).padStart(6, '0')}.jpg`;
    if (!written.has(sel)) {
      out.push(undefined);
      continue;
    }
    const target = join(folder, `frame-${String(n).padStart(6, '0')}.jpg`);
    await rename(join(folder, sel), target);
    out.push(target);
  }
  return out;
}
