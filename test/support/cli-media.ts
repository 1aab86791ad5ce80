/** Folders of media for the CLI tests: OpenCV's real photos and clip, broken files, oriented JPEGs. */
import { execFile } from 'node:child_process';
import { copyFile, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { realMediaDir } from './real-media.js';
import { jpeg } from './synth-media.js';

const run = promisify(execFile);

export interface RealFolder {
  dir: string;
  /** Photos the models can label (one of them twice under another name). */
  good: { messi: string; fruits: string; basketball: string; clip: string };
  duplicate: string;
  corruptJpeg: string;
  textAsPng: string;
}

/**
 * messi5.jpg, fruits.jpg, basketball1.png, a copy of messi5 under another name, a JPEG cut short,
 * a text file named .png, and the first 4 s of vtest.avi (stream copy, no re-encoding).
 */
export async function realMediaFolder(dir: string): Promise<RealFolder> {
  const src = await realMediaDir();
  const at = (name: string) => join(dir, name);
  await copyFile(join(src, 'messi5.jpg'), at('messi5.jpg'));
  await copyFile(join(src, 'fruits.jpg'), at('fruits.jpg'));
  await copyFile(join(src, 'basketball1.png'), at('basketball1.png'));
  await copyFile(join(src, 'messi5.jpg'), at('the-same-match.jpg'));
  const fruits = await readFile(join(src, 'fruits.jpg'));
  await writeFile(at('cut-short.jpg'), fruits.subarray(0, 3000));
  await writeFile(at('notes.png'), 'These are not pixels, just a note saved as .png\n');
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    join(src, 'vtest.avi'),
    '-t',
    '4',
    '-c',
    'copy',
    at('vtest-4s.avi'),
  ]);
  return {
    dir,
    good: {
      messi: at('messi5.jpg'),
      fruits: at('fruits.jpg'),
      basketball: at('basketball1.png'),
      clip: at('vtest-4s.avi'),
    },
    duplicate: at('the-same-match.jpg'),
    corruptJpeg: at('cut-short.jpg'),
    textAsPng: at('notes.png'),
  };
}

/** Duration of a clip in ms, from ffprobe. */
export async function clipDurationMs(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=nw=1:nk=1',
    file,
  ]);
  return Math.round(Number(stdout.trim()) * 1000);
}

/** A JPEG stored `width`×`height` whose EXIF orientation 6 makes viewers show it rotated a quarter turn. */
export async function orientedJpeg(file: string, width = 320, height = 240): Promise<void> {
  await sharp(await jpeg(width, height, 1))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toFile(file);
}

/**
 * Distinct JPEGs (each a different picture and size) named `${prefix}0.jpg`…; `first` shifts the
 * pictures so that two calls can make different ones. Returns their paths.
 */
export async function distinctJpegs(
  dir: string,
  count: number,
  prefix = 'photo',
  first = 0,
): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const file = join(dir, `${prefix}${i}.jpg`);
    await writeFile(file, await jpeg(160 + 16 * n, 120 + 8 * n, n));
    files.push(file);
  }
  return files;
}

/**
 * Writes `bytes` to `file` in `chunks` pieces `gapMs` apart, the way a slow copy or a camera
 * upload does; resolves when the last byte is written and the file closed.
 */
export async function writeSlowly(
  file: string,
  bytes: Buffer,
  chunks: number,
  gapMs: number,
): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const size = Math.ceil(bytes.length / chunks);
    for (let at = 0; at < bytes.length; at += size) {
      await handle.write(bytes.subarray(at, Math.min(bytes.length, at + size)));
      await handle.sync();
      if (at + size < bytes.length) await new Promise((r) => setTimeout(r, gapMs));
    }
  } finally {
    await handle.close();
  }
}
