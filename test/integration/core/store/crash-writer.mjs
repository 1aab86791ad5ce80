// Child process for the kill -9 test: writes batches as fast as it can and prints the number of
// each batch once its transactions have committed. Runs the compiled store (npm run build:node).
import { openLibraryStore } from '../../../../build/electron/core/review/open-library-store.js';

const [file, first] = process.argv.slice(2);
const store = openLibraryStore(file);
const folder = store.folders.add('/crash');

for (let n = Number(first); ; n++) {
  store.media.upsertMany(
    Array.from({ length: 20 }, (_, k) => ({
      folderId: folder.id,
      path: `/crash/${n}/${k}.jpg`,
      kind: 'image',
      size: 1000 + k,
      mtimeMs: n,
      contentHash: `batch-${n}`,
      width: 640,
      height: 480,
      orientation: 1,
      durationMs: null,
      fps: null,
    })),
  );
  store.results.save({
    contentHash: `batch-${n}`,
    solution: 'objects',
    serviceUrl: 'http://crash',
    analysedWidth: 640,
    analysedHeight: 480,
    model: null,
    detections: Array.from({ length: 50 }, (_, j) => ({
      frameIndex: 0,
      timeMs: null,
      label: 'person',
      classId: 0,
      score: j / 50,
      bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      bboxPx: { x: 64, y: 48, w: 128, h: 96 },
    })),
  });
  // Pipes are written synchronously on Linux: once this returns, the parent can read it.
  process.stdout.write(`${n}\n`);
}
