/**
 * The alt service's "model": deterministic boxes derived from the bytes' hash, so a test can
 * compare what LabelDesk stored with what was served. Images are really decoded (sharp) for their
 * size; clips are really probed (ffprobe) for their duration and sampled at the service's rate.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** A served box, normalised, top-left corner + size (the truth the test compares against). */
export interface TruthBox {
  classIndex: number;
  score: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export const CLASSES = ['person', 'car', 'dog'];

/** Longest side the alt service analyses at (so analysed pixels differ from the file's). */
const ANALYSED_SIDE = 256;

export function analysedSize(width: number, height: number): { width: number; height: number } {
  const k = Math.min(1, ANALYSED_SIDE / Math.max(width, height));
  return { width: Math.round(width * k), height: Math.round(height * k) };
}

function digits(seed: string): number[] {
  return [...createHash('sha256').update(seed).digest()].map((b) => b % 10);
}

/**
 * Two boxes. `decidable`: one box sits right of the middle (x1 + x2 > 1), so an x1,y1,x2,y2 array
 * cannot be read as x,y,w,h; otherwise both boxes are small and top-left, where both readings fit.
 */
export function boxesFor(seed: string, decidable: boolean): TruthBox[] {
  const d = digits(seed);
  const at = (i: number) => d[i % d.length] ?? 0;
  if (!decidable) {
    return [
      { classIndex: 0, score: 0.5 + at(0) / 100, x: 0.02, y: 0.03, w: 0.3, h: 0.25 },
      { classIndex: 1, score: 0.6 + at(1) / 100, x: 0.04, y: 0.05, w: 0.2, h: 0.3 },
    ];
  }
  return [
    {
      classIndex: at(2) % CLASSES.length,
      score: 0.42 + at(3) / 50,
      x: 0.55 + at(4) / 100,
      y: 0.5 + at(5) / 100,
      w: 0.2 + at(6) / 100,
      h: 0.2 + at(7) / 100,
    },
    {
      classIndex: at(8) % CLASSES.length,
      score: 0.7 + at(9) / 100,
      x: 0.05 + at(10) / 100,
      y: 0.06 + at(11) / 100,
      w: 0.1 + at(12) / 100,
      h: 0.15 + at(13) / 100,
    },
  ];
}

export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The image's size, or null when the bytes are not an image sharp can decode. */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const meta = await sharp(bytes).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}

export interface ClipProbe {
  durationMs: number;
  width: number;
  height: number;
}

export async function probeClip(file: string): Promise<ClipProbe | null> {
  try {
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height:format=duration',
      '-of',
      'json',
      file,
    ]);
    const info = JSON.parse(stdout) as {
      streams?: { width?: number; height?: number }[];
      format?: { duration?: string };
    };
    const s = info.streams?.[0];
    const duration = Number(info.format?.duration);
    if (!s?.width || !s.height || !Number.isFinite(duration)) return null;
    return { durationMs: duration * 1000, width: s.width, height: s.height };
  } catch {
    return null;
  }
}
