/**
 * `labeldesk export --format mot --interpolate` on the real clip vtest.avi (its first 4 s), labelled
 * by the embedded real models: every frame number is one of the clip's own frames (counted by
 * ffprobe, at its real rate), each track has a box on every frame from its first to its last, the
 * boxes lie within the clip's real width and height, and a track a person drew with two keyframes
 * comes out exactly linear in between.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { timeOfFrame } from '../../../electron/shared/geometry/track-interpolation.js';
import { readMot, type ReadBox } from '../../support/cli-exports.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { realMediaDir } from '../../support/real-media.js';
import { callReview } from '../../support/review-calls.js';

const run = promisify(execFile);
let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let clip: string;
/** What ffprobe says of the clip: frames counted by decoding, and the frame rate. */
let probe: { frames: number; fps: number; width: number; height: number };
let drawnTrack: number;
let outN = 0;

const FIRST = { x: 0.1, y: 0.2, w: 0.1, h: 0.3 };
const LAST = { x: 0.4, y: 0.5, w: 0.2, h: 0.3 };
/** Clip frames of the two keyframes: odd, so between the 5-per-second samples of a 10 fps clip. */
const [K1, K2] = [3, 27];

async function ffprobe(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames,r_frame_rate,width,height',
    '-of',
    'json',
    file,
  ]);
  const s = (JSON.parse(stdout) as { streams: Record<string, string | number>[] }).streams[0]!;
  const [num, den] = String(s['r_frame_rate']).split('/').map(Number) as [number, number];
  return {
    frames: Number(s['nb_read_frames']),
    fps: num / den,
    width: Number(s['width']),
    height: Number(s['height']),
  };
}

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  const folder = join(t.dir, 'clips');
  await mkdir(folder);
  clip = join(folder, 'vtest-4s.avi');
  const src = join(await realMediaDir(), 'vtest.avi');
  await run('ffmpeg', ['-v', 'error', '-y', '-i', src, '-t', '4', '-c', 'copy', clip]);
  probe = await ffprobe(clip);
  const r = await runCli(['label', folder, '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
  // A person draws a new track: two keyframes between analysed frames.
  const store = openLibraryStore(join(t.home, 'library.sqlite'));
  try {
    const [media] = store.media.list({ kind: 'video' });
    const id = media!.id;
    const call = <N extends 'review.boxes' | 'review.addKeyframe'>(
      name: N,
      input: Parameters<typeof callReview<N>>[3],
    ) => callReview(store, () => undefined, name, input);
    const { boxes } = await call('review.boxes', { id, solution: 'objects' });
    drawnTrack = Math.max(0, ...boxes.map((b) => b.trackId ?? 0)) + 1;
    for (const [frame, bbox] of [
      [K1, FIRST],
      [K2, LAST],
    ] as const) {
      await call('review.addKeyframe', {
        id,
        solution: 'objects',
        trackId: drawnTrack,
        frameIndex: frame,
        keyframe: true,
        timeMs: timeOfFrame(frame, probe.fps),
        label: 'person',
        bbox,
      });
    }
  } finally {
    store.close();
  }
}, 300_000);
afterAll(() => t.remove());

async function exportMot(...extra: string[]): Promise<ReadBox[]> {
  const out = join(t.dir, `mot-${++outN}`);
  const r = await runCli(['export', '--format', 'mot', '--out', out, ...extra], env);
  expect(r.code, r.stderr).toBe(0);
  const sources = await readFile(join(out, 'sources.csv'), 'utf8');
  expect(sources.trim().split('\n')[1]).toMatch(new RegExp(`,${probe.fps}$`));
  return readMot(out);
}

const byTrack = (boxes: ReadBox[]) => {
  const m = new Map<number, number[]>();
  for (const b of boxes) m.set(b.track!, [...(m.get(b.track!) ?? []), b.frame!]);
  return m;
};

describe('labeldesk export --interpolate', () => {
  it('writes every frame of each track at the clip’s own rate, within its real size', async () => {
    expect(probe).toMatchObject({ width: 768, height: 576 });
    const analysed = await exportMot();
    const all = await exportMot('--interpolate');
    expect(all.length).toBeGreaterThan(analysed.length * 1.5);
    for (const b of all) {
      expect(Number.isInteger(b.frame)).toBe(true);
      expect(b.frame).toBeGreaterThanOrEqual(1);
      expect(b.frame).toBeLessThanOrEqual(probe.frames);
      expect(b.xmin).toBeGreaterThanOrEqual(0);
      expect(b.ymin).toBeGreaterThanOrEqual(0);
      expect(b.xmax).toBeLessThanOrEqual(probe.width + 0.01);
      expect(b.ymax).toBeLessThanOrEqual(probe.height + 0.01);
      expect([b.width, b.height]).toEqual([probe.width, probe.height]);
    }
    // Analysed frames are every other frame (5 per second of a 10 fps clip); interpolated: all.
    const tracks = byTrack(all.filter((b) => b.track! > 0));
    expect(tracks.size).toBeGreaterThan(2);
    for (const [, frames] of tracks) {
      const first = Math.min(...frames);
      const last = Math.max(...frames);
      expect([...new Set(frames)].sort((a, b) => a - b)).toEqual(
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
      );
    }
    // The analysed export's boxes are all in it, on the same frames.
    const key = (b: ReadBox) => `${b.frame}|${b.track}|${b.xmin}|${b.ymin}|${b.xmax}`;
    const keys = new Set(all.map(key));
    for (const b of analysed) expect(keys.has(key(b))).toBe(true);
    // The last analysed frame's boxes stand at the clip's end, no further.
    expect(Math.max(...all.map((b) => b.frame!))).toBe(Math.max(...analysed.map((b) => b.frame!)));
  }, 120_000);

  it('a two-keyframe track gives exact linear boxes on every frame in between', async () => {
    const drawn = (await exportMot('--interpolate'))
      .filter((b) => b.track === drawnTrack)
      .sort((a, b) => a.frame! - b.frame!);
    expect(drawn.map((b) => b.frame)).toEqual(
      Array.from({ length: K2 - K1 + 1 }, (_, i) => K1 + 1 + i),
    );
    const px = (v: number, size: number) => Math.round(v * size * 100) / 100;
    for (const b of drawn) {
      const s = (b.frame! - 1 - K1) / (K2 - K1);
      const lerp = (a: number, z: number) => a + (z - a) * s;
      expect(b.label).toBe('person');
      expect(b.xmin).toBeCloseTo(px(lerp(FIRST.x, LAST.x), 768), 1);
      expect(b.ymin).toBeCloseTo(px(lerp(FIRST.y, LAST.y), 576), 1);
      expect(b.xmax - b.xmin).toBeCloseTo(px(lerp(FIRST.w, LAST.w), 768), 1);
      expect(b.ymax - b.ymin).toBeCloseTo(px(lerp(FIRST.h, LAST.h), 576), 1);
    }
  }, 60_000);

  it('refuses --interpolate with a format that writes no clip frames', async () => {
    const r = await runCli(
      ['export', '--format', 'coco', '--out', join(t.dir, 'c.json'), '--interpolate'],
      env,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--interpolate works with mot, csv, or --clip-frames/);
  });
});
