/**
 * A real library for the image review bench: 1920×1080 JPEGs made with sharp in a folder, and their
 * rows and boxes written straight into LABELDESK_HOME's SQLite library through the store API (real
 * content hashes, sizes and mtimes, so the app's rescan finds nothing to redo). No model runs.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { hashFile } from '../electron/core/library/hash-file.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import type { BoxXYWH, DetectionInput } from '../electron/core/store/store-types.js';
import { iou } from '../electron/shared/geometry/box-math.js';
import { CONFLICT_MIN_IOU } from '../electron/shared/geometry/conflicts.js';
import { seededRandom } from './seeded-random.js';

export const PICTURE = { width: 1920, height: 1080 };
export const SOLUTION = 'objects';
const CLASSES = ['person', 'car', 'bicycle', 'dog', 'truck', 'bus', 'cat', 'bird', 'chair', 'cup'];

export interface BenchBox extends BoxXYWH {
  label: string;
  score: number;
}

export interface BenchImage {
  name: string;
  id: number;
  boxes: BenchBox[];
}

/**
 * Detector-like boxes: 1–6 % of the width, 2–10 % of the height, anywhere in the picture. None is
 * a conflict (another class on the same object, IoU ≥ 0.7): the review would list such a pair as
 * one row, and the bench waits for every box to be listed.
 */
export function makeBoxes(count: number, seed: number): BenchBox[] {
  const r = seededRandom(seed);
  const boxes: BenchBox[] = [];
  while (boxes.length < count) {
    const w = 0.01 + r() * 0.05;
    const h = 0.02 + r() * 0.08;
    const box = {
      x: r() * (1 - w),
      y: r() * (1 - h),
      w,
      h,
      label: CLASSES[Math.floor(r() * CLASSES.length)] ?? 'person',
      score: 0.3 + r() * 0.69,
    };
    if (!boxes.some((b) => b.label !== box.label && iou(b, box) >= CONFLICT_MIN_IOU))
      boxes.push(box);
  }
  return boxes;
}

async function writePicture(file: string, seed: number): Promise<void> {
  const bytes = await sharp({
    create: {
      ...PICTURE,
      channels: 3,
      background: { r: (seed * 53) % 256, g: 110, b: 140 },
      noise: { type: 'gaussian', mean: 120 + (seed % 40), sigma: 40 },
    },
  })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer();
  await writeFile(file, bytes);
  // Older than any "still being written" window: the app's rescan takes the files as they are.
  const past = new Date(Date.now() - 3_600_000);
  await utimes(file, past, past);
}

/** Writes the pictures into `folder` and the library into `home`; ids in `wanted` order. */
export async function buildReviewLibrary(
  home: string,
  folder: string,
  wanted: ReadonlyArray<{ name: string; boxes: number }>,
): Promise<BenchImage[]> {
  const files = await Promise.all(
    wanted.map(async (w, i) => {
      const path = join(folder, w.name);
      await writePicture(path, i + 1);
      return { ...w, path, hashed: await hashFile(path), boxes: makeBoxes(w.boxes, i + 1) };
    }),
  );
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    const dir = store.folders.add(folder);
    const ids = store.media.upsertMany(
      files.map((f) => ({
        folderId: dir.id,
        path: f.path,
        kind: 'image' as const,
        size: f.hashed.size,
        mtimeMs: f.hashed.mtimeMs,
        contentHash: f.hashed.hash,
        ...PICTURE,
        orientation: 1,
        durationMs: null,
        fps: null,
      })),
    );
    store.results.saveMany(
      files.map((f) => ({
        contentHash: f.hashed.hash,
        solution: SOLUTION,
        serviceUrl: 'local',
        analysedWidth: PICTURE.width,
        analysedHeight: PICTURE.height,
        model: 'bench',
        detections: f.boxes.map((b): DetectionInput => ({
          frameIndex: 0,
          timeMs: null,
          label: b.label,
          classId: CLASSES.indexOf(b.label),
          score: b.score,
          bbox: { x: b.x, y: b.y, w: b.w, h: b.h },
        })),
      })),
    );
    store.folders.markScanned(dir.id, Date.now());
    return files.map((f, i) => ({ name: f.name, id: ids[i] ?? -1, boxes: f.boxes }));
  } finally {
    store.close();
  }
}
