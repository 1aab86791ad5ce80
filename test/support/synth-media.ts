/** Media made on the spot for tests: images with sharp, clips with ffmpeg's test source. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** A JPEG with a bright block on a dark gradient (so content-derived boxes exist); `seed` moves the block. */
export async function jpeg(width = 320, height = 240, seed = 0): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  const bx = Math.floor(((seed * 37) % 3) * (width / 4));
  const by = Math.floor(((seed * 17) % 3) * (height / 4));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBlock = x >= bx && x < bx + width / 4 && y >= by && y < by + height / 4;
      const v = inBlock ? 240 : 30 + Math.floor((40 * x) / width);
      data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** A testsrc clip: `seconds` long at `fps`, written to dir/name (the extension picks the container). */
export async function clip(
  dir: string,
  name: string,
  seconds: number,
  size = '320x240',
  fps = 10,
): Promise<string> {
  const file = join(dir, name);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=${fps}`,
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}
