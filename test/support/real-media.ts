/**
 * Real photos and clips for tests, from OpenCV's sample data in Debian's `opencv-doc` package
 * (messi5.jpg, basketball1.png, fruits.jpg, vtest.avi, …). Downloaded once with apt into the
 * git-ignored `<repo>/.cache/media`; later calls (and other test processes) reuse it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cacheDir = path.join(repoRoot, '.cache', 'media');
const dataDir = path.join(cacheDir, 'opencv-data');
const doneMarker = path.join(dataDir, '.complete');
const lockDir = path.join(cacheDir, '.opencv-data.lock');
const PACKAGE_DATA = path.join('usr', 'share', 'doc', 'opencv-doc', 'examples', 'data');
/** A lock older than this was left by a killed process. */
const STALE_LOCK_MS = 10 * 60_000;

let pending: Promise<string> | undefined;

export function realMediaDir(): Promise<string> {
  pending ??= ensureMedia().catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}

async function ensureMedia(): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  for (;;) {
    if (existsSync(doneMarker)) return dataDir;
    // mkdir is atomic: exactly one process (or test file) downloads; the others wait for it.
    if (await tryLock()) {
      try {
        if (!existsSync(doneMarker)) await download();
        return dataDir;
      } finally {
        await rm(lockDir, { recursive: true, force: true });
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function tryLock(): Promise<boolean> {
  try {
    await mkdir(lockDir);
    return true;
  } catch {
    const age = await stat(lockDir).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await rm(lockDir, { recursive: true, force: true });
    return false;
  }
}

async function download(): Promise<void> {
  const work = await mkdtemp(path.join(cacheDir, 'tmp-'));
  try {
    await run('apt-get', ['download', 'opencv-doc'], { cwd: work, maxBuffer: 16 << 20 });
    const deb = (await readdir(work)).find((f) => f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download opencv-doc produced no .deb (run apt-get update?)');
    const extracted = path.join(work, 'x');
    await run('dpkg', ['-x', path.join(work, deb), extracted]);
    const data = path.join(extracted, PACKAGE_DATA);
    // Debian compresses some larger examples; tests want them plain.
    for (const name of await readdir(data)) {
      if (!name.endsWith('.gz')) continue;
      const file = path.join(data, name);
      await writeFile(file.slice(0, -3), gunzipSync(await readFile(file)));
      await rm(file);
    }
    await writeFile(path.join(data, '.complete'), new Date().toISOString());
    await rm(dataDir, { recursive: true, force: true });
    await rename(data, dataDir); // atomic: readers never see a half-filled folder
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
