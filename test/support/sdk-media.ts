/** Media for the SDK client tests: a synthesised JPEG and short test-pattern clips. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** A 320×240 JPEG with a few coloured shapes, written to `path`. */
export async function writeJpeg(path: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240">
    <rect width="320" height="240" fill="#dfe6ee"/>
    <rect x="40" y="60" width="90" height="140" fill="#c0392b"/>
    <circle cx="220" cy="120" r="60" fill="#2c7be5"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(path);
  return path;
}

/** An H.264 test-pattern clip (ffmpeg's testsrc), `seconds` long at 10 fps, written to `path`. */
export async function writeClip(path: string, seconds = 2, size = '320x240'): Promise<string> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc=duration=${seconds}:size=${size}:rate=10`, '-pix_fmt', 'yuv420p', path],
  ]);
  return path;
}
