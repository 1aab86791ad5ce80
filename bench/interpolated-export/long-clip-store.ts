/**
 * A real SQLite library holding one 2-hour clip at 25 fps analysed at 1 frame per second (7,200
 * samples, 50,000 boxes), written through the store API: seven lanes, each crossed by one object
 * after another (a slow, steady walk the tracker links), with a second's gap between objects. The
 * clip file itself is never read by a MOT export, so none is made. Seeded: the same every run.
 */
import { join } from 'node:path';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import type { DetectionInput } from '../../electron/core/store/store-types.js';
import { seededRandom } from '../seeded-random.js';

export const LONG_CLIP = {
  path: '/bench/long-2h.mp4',
  fps: 25,
  durationMs: 7_200_000,
  samples: 7_200,
  boxes: 50_000,
  width: 1280,
  height: 720,
  lanes: 7,
};
const CLASSES = ['person', 'car', 'bicycle'];

/** The model's boxes, in sample order: ~7 per sample, each object living 1–10 minutes. */
export function longClipDetections(): DetectionInput[] {
  const r = seededRandom(14);
  const { lanes, samples } = LONG_CLIP;
  const out: DetectionInput[][] = Array.from({ length: samples }, () => []);
  for (let lane = 0; lane < lanes; lane++) {
    for (let start = Math.floor(r() * 30); start < samples;) {
      const life = 60 + Math.floor(r() * 540);
      const label = CLASSES[Math.floor(r() * CLASSES.length)] as string;
      const y = (lane + 0.1) / lanes;
      const [w, h] = [0.05, 0.7 / lanes];
      for (let s = start; s < Math.min(samples, start + life); s++) {
        // Across the picture once per life, so neighbouring samples overlap well.
        const x = ((s - start) / life) * (1 - w);
        const bbox = { x, y, w, h };
        out[s]?.push({
          frameIndex: s,
          timeMs: s * 1000,
          label,
          classId: CLASSES.indexOf(label),
          score: 0.3 + r() * 0.69,
          bbox,
        });
      }
      start += life + 1;
    }
  }
  const all = out.flat();
  // Exactly `boxes`: the last ones go (the clip's end, where nothing is left to interpolate).
  return all.slice(0, LONG_CLIP.boxes);
}

/** Writes the library into `home`; answers the clip's media id. */
export function buildLongClipStore(home: string): number {
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    const folder = store.folders.add('/bench');
    const contentHash = 'long-clip-2h';
    const [id] = store.media.upsertMany([
      {
        folderId: folder.id,
        path: LONG_CLIP.path,
        kind: 'video',
        size: 1,
        mtimeMs: 0,
        contentHash,
        width: LONG_CLIP.width,
        height: LONG_CLIP.height,
        orientation: 1,
        durationMs: LONG_CLIP.durationMs,
        fps: LONG_CLIP.fps,
      },
    ]);
    store.results.save({
      contentHash,
      solution: 'objects',
      serviceUrl: 'local',
      analysedWidth: LONG_CLIP.width,
      analysedHeight: LONG_CLIP.height,
      model: 'bench',
      detections: longClipDetections(),
    });
    return id ?? -1;
  } finally {
    store.close();
  }
}
