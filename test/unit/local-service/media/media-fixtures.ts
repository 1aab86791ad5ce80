/** Media synthesised for the media-module tests: images with sharp, clips with ffmpeg testsrc. */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sharp from 'sharp';

const run = promisify(execFile);

export async function makeTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-media-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A noisy image, so that JPEG truncation really cuts into scan data. */
export function noisyImage(width: number, height: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  });
}

/** A flat image: cheap to encode in every format. */
export function solidImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } });
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
/** zlib.crc32 arrived in Node 20.15/22.2; keep a fallback for older 20.x. */
function crc32(buf: Buffer): number {
  const native = (zlib as { crc32?: (b: Buffer) => number }).crc32;
  if (native) return native(buf);
  let c = 0xffffffff;
  for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** A valid PNG header claiming width×height, with one tiny (wrong-sized) IDAT: a decompression bomb stand-in. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(16))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function ffmpegRun(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', ...args]);
}

const CODEC_ARGS: Record<string, string[]> = {
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  mkv: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  webm: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k'],
  avi: ['-c:v', 'mpeg4'],
  mov: ['-c:v', 'mpeg4'],
};

/** A testsrc clip in the container named by `ext`; `extra` goes before the output name. */
export async function testClip(
  dir: string,
  ext: string,
  opts: { seconds?: number; size?: string; rate?: number; name?: string; extra?: string[] } = {},
): Promise<string> {
  const { seconds = 3, size = '640x360', rate = 25 } = opts;
  const file = join(dir, opts.name ?? `clip.${ext}`);
  await ffmpegRun([
    '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=${rate}`,
    ...(CODEC_ARGS[ext] ?? []), ...(opts.extra ?? []), file,
  ]); // prettier-ignore
  return file;
}

/** Child processes of this test process named `name`, zombies included (they keep ppid and comm). */
export async function childProcesses(name: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Format: pid (comm) state ppid …
    const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (m && m[1] === name && Number(m[2]) === process.pid) pids.push(Number(entry));
  }
  return pids;
}
