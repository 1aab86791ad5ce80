/**
 * The large library the store benches share: `images` images from ten cameras (equal file names)
 * with 10 model boxes each, written in batches as a long labelling run would. Benches that add
 * people's work (corrections, reviews) do it batch by batch through `afterBatch`.
 */
import { createHash } from 'node:crypto';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import type { BoxXYWH, DetectionInput, LibraryStore } from '../electron/core/store/store-types.js';

export const IMAGES = 100_000;
export const BOXES = 10;
export const CLASSES = Array.from({ length: 80 }, (_, i) => `class${i}`);
const BATCH = 1000;

export const boxOf = (i: number, k: number): BoxXYWH => ({
  x: ((i * 7 + k * 13) % 90) / 100,
  y: ((i * 3 + k * 29) % 90) / 100,
  w: 0.1,
  h: 0.08,
});
export const labelOf = (i: number, k: number) => CLASSES[(i + k) % CLASSES.length] ?? 'x';
/** Box k's score: the same in every image (the default), or varied per image by the caller. */
export const scoreByBox = (_i: number, k: number) => 0.3 + (k % 7) / 10;

/**
 * Image i's content hash as the app stores it (SHA-256, 64 hex digits): random keys spread a
 * table's writes over its whole index, where short ones (`h${i}`, which every bench used before)
 * keep them in order. An import into a library with these wrote 3.7 times the bytes and took 5-6
 * s longer at 100k (before migration 26).
 */
export const realContentHash = (i: number) =>
  createHash('sha256').update(`image ${i}`).digest('hex');

export interface LibraryOptions {
  scoreOf?: (i: number, k: number) => number;
  /** Image i's content hash (default `realContentHash`). */
  contentHashOf?: (i: number) => string;
  /** Runs after images [first, end) have their model boxes; `ids` are their media ids. */
  afterBatch?: (store: LibraryStore, first: number, end: number, ids: readonly number[]) => void;
}

function detectionsOf(i: number, scoreOf: (i: number, k: number) => number): DetectionInput[] {
  return Array.from({ length: BOXES }, (_, k) => {
    const bbox = boxOf(i, k);
    return {
      frameIndex: 0,
      timeMs: null,
      label: labelOf(i, k),
      classId: (i + k) % CLASSES.length,
      score: scoreOf(i, k),
      bbox,
    };
  });
}

/** Writes the library into a new SQLite file at `file`. */
export function buildLibrary(file: string, images = IMAGES, options: LibraryOptions = {}): void {
  const scoreOf = options.scoreOf ?? scoreByBox;
  const hashOf = options.contentHashOf ?? realContentHash;
  const store = openLibraryStore(file);
  try {
    const folder = store.folders.add('/data');
    const rows = Array.from({ length: images }, (_, i) => ({
      folderId: folder.id,
      path: `/data/cam-${i % 10}/frame-${String(i).padStart(6, '0')}.jpg`,
      kind: 'image' as const,
      size: 250_000,
      mtimeMs: 0,
      contentHash: hashOf(i),
      width: 1920,
      height: 1080,
      orientation: 1,
      durationMs: null,
      fps: null,
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 10_000)
      ids.push(...store.media.upsertMany(rows.slice(i, i + 10_000)));
    for (let first = 0; first < images; first += BATCH) {
      const end = Math.min(images, first + BATCH);
      const files = Array.from({ length: end - first }, (_, j) => first + j);
      store.results.saveMany(
        files.map((i) => ({
          contentHash: hashOf(i),
          solution: 'objects',
          serviceUrl: 'local',
          analysedWidth: 640,
          analysedHeight: 360,
          model: 'centernet',
          detections: detectionsOf(i, scoreOf),
        })),
      );
      options.afterBatch?.(store, first, end, ids.slice(first, end));
    }
  } finally {
    store.close();
  }
}
