/**
 * A large library made quickly: thousands of tiny distinct JPEGs (one small picture, a different
 * tail after its end marker, so every file hashes apart and still decodes), and a library that
 * already knows them up to a chosen stage, as if an earlier run had left it there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
