/**
 * A large library made quickly: thousands of tiny distinct JPEGs (one small picture, a different
 * tail after its end marker, so every file hashes apart and still decodes), and a library that
 * already knows them up to a chosen stage, as if an earlier run had left it there.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAppContext } from '../../electron/application/app-context.js';
import { Library } from '../../electron/core/library/library.js';
import { jpeg } from './synth-media.js';

const PER_FOLDER = 1000;

/** Writes `count` tiny JPEGs into `dir`, a thousand per subfolder. */
export async function tinyPhotos(dir: string, count: number): Promise<void> {
  const picture = await jpeg(16, 12);
  for (let start = 0; start < count; start += PER_FOLDER) {
    const sub = join(dir, `part-${start / PER_FOLDER}`);
    await mkdir(sub, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = start; i < Math.min(count, start + PER_FOLDER); i++) {
      const tail = Buffer.from(`#${i}`);
      writes.push(writeFile(join(sub, `p${i}.jpg`), Buffer.concat([picture, tail])));
    }
    await Promise.all(writes);
  }
}

const CACHE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '.cache');

/**
 * The same `count` tiny JPEGs, written once into the git-ignored .cache and shared (read only) by
 * every test file and later runs: writing 20k files costs seconds on a busy machine.
 */
export async function cachedTinyPhotos(count: number): Promise<string> {
  const dir = join(CACHE, `tiny-photos-${count}`);
  if (existsSync(dir)) return dir;
  await mkdir(CACHE, { recursive: true });
  const temp = await mkdtemp(join(CACHE, `.tiny-photos-${count}-`));
  await tinyPhotos(temp, count);
  // Atomic: a test file that finished first keeps its copy, this one is dropped.
  await rename(temp, dir).catch(() => rm(temp, { recursive: true, force: true }));
  return dir;
}

export type LibraryStage = 'added' | 'scanned' | 'read';

/** The library in `home` with `folder` added, and scanned, or scanned, hashed and probed. */
export async function libraryAt(home: string, folder: string, stage: LibraryStage): Promise<void> {
  const context = openAppContext({ ...process.env, LABELDESK_HOME: home });
  try {
    const library = new Library(context.store);
    await library.addFolder(folder);
    if (stage === 'added') return;
    await library.scanAll();
    if (stage === 'read') await library.hashAndProbePending();
  } finally {
    context.close();
  }
}
