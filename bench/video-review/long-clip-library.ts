/**
 * A real library holding one 2-hour clip analysed at 1 frame per second: an H.264 MP4 made by
 * ffmpeg (a flat colour at 25 fps, a key frame every second: small, and quick to make and seek;
 * kept in the git-ignored `.cache`), its row and 50,000 boxes written into LABELDESK_HOME's SQLite
 * library through the store API. No model runs.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hashFile } from '../../electron/core/library/hash-file.js';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import { packageRoot } from '../../electron/node-lib/app-paths.js';
import { LONG_CLIP_CLASSES, longClipBoxes, type ClipBox } from './long-clip.js';

const run = promisify(execFile);

export const LONG_CLIP = {
  name: 'long-2h.mp4',
  width: 256,
  height: 144,
  fps: 25,
  durationMs: 7_200_000,
  sampledFrames: 7_200,
  boxes: 50_000,
  periodMs: 1000,
};
export const SOLUTION = 'objects';

async function cachedClip(): Promise<string> {
  const dir = join(packageRoot(), '.cache', 'bench-media');
  const file = join(dir, LONG_CLIP.name);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const part = `${file}.part.mp4`;
  const { width, height, fps, durationMs } = LONG_CLIP;
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `color=c=0x335577:size=${width}x${height}:rate=${fps}`],
    ...['-t', String(durationMs / 1000), '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-crf', '40', '-g', String(fps), '-pix_fmt', 'yuv420p', '-movflags', '+faststart', part],
  ]);
  await rename(part, file);
  return file;
}

export interface LongClipLibrary {
  id: number;
  name: string;
  boxes: ClipBox[];
}

/** Copies the clip into `folder` and writes the library into `home`. */
export async function buildLongClipLibrary(home: string, folder: string): Promise<LongClipLibrary> {
  const path = join(folder, LONG_CLIP.name);
  await copyFile(await cachedClip(), path);
  // Older than any "still being written" window: the app's rescan takes the file as it is.
  const past = new Date(Date.now() - 3_600_000);
  await utimes(path, past, past);
  const hashed = await hashFile(path);
  const boxes = longClipBoxes(LONG_CLIP.sampledFrames, LONG_CLIP.boxes, LONG_CLIP.periodMs);
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    const dir = store.folders.add(folder);
    const [id] = store.media.upsertMany([
      {
        folderId: dir.id,
        path,
        kind: 'video',
        size: hashed.size,
        mtimeMs: hashed.mtimeMs,
        contentHash: hashed.hash,
        width: LONG_CLIP.width,
        height: LONG_CLIP.height,
        orientation: 1,
        durationMs: LONG_CLIP.durationMs,
        fps: LONG_CLIP.fps,
      },
    ]);
    const { width, height } = LONG_CLIP;
    store.results.save({
      contentHash: hashed.hash,
      solution: SOLUTION,
      serviceUrl: 'local',
      analysedWidth: width,
      analysedHeight: height,
      model: 'bench',
      detections: boxes.map((b) => ({
        frameIndex: b.frameIndex,
        timeMs: b.timeMs,
        label: b.label,
        classId: LONG_CLIP_CLASSES.indexOf(b.label),
        score: b.score,
        bbox: b.bbox,
      })),
    });
    store.folders.markScanned(dir.id, Date.now());
    return { id: id ?? -1, name: LONG_CLIP.name, boxes };
  } finally {
    store.close();
  }
}
