/**
 * A library seeded straight through the store with analysed photos (640×480, solution `objects`)
 * and the model boxes given, for CLI tests that need exact scores without a service.
 */
import { join } from 'node:path';
import type { DetectionInput, LibraryStore } from '../../electron/core/store/store-types.js';

export interface AnalysedImage {
  name: string;
  contentHash: string;
  detections: DetectionInput[];
}

/** One model box of frame 0, normalised. */
export const modelBox = (
  label: string,
  score: number | null,
  bbox: DetectionInput['bbox'],
): DetectionInput => ({ frameIndex: 0, timeMs: null, label, classId: null, score, bbox });

/** Adds the photos under `dir` and saves their results; returns their media ids, in order. */
export function seedAnalysedImages(
  store: LibraryStore,
  dir: string,
  images: readonly AnalysedImage[],
): number[] {
  const folder = store.folders.add(dir);
  const ids = store.media.upsertMany(
    images.map((i) => ({
      folderId: folder.id,
      path: join(dir, i.name),
      kind: 'image' as const,
      size: 1000,
      mtimeMs: 1,
      contentHash: i.contentHash,
      width: 640,
      height: 480,
      orientation: 1,
      durationMs: null,
      fps: null,
    })),
  );
  for (const i of images)
    store.results.save({
      contentHash: i.contentHash,
      solution: 'objects',
      serviceUrl: 'embedded',
      analysedWidth: 640,
      analysedHeight: 480,
      model: 'centernet',
      detections: i.detections,
    });
  return ids;
}
