/**
 * `labeldesk export --format events` on a real clip (the first 10 s of OpenCV's vtest.avi, labelled
 * by the embedded real models) in a folder whose name needs CSV quoting: one row per track per
 * presence range, checked against the MOT export of the same library (the same tracks, their
 * boxes, first and last frames and scores), and a track a person rejected is no longer in it.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { parseCsv, readMot, type ReadBox } from '../../support/cli-exports.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { realMediaDir } from '../../support/real-media.js';
import { callReview } from '../../support/review-calls.js';

const run = promisify(execFile);

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let clipPath: string;
let outN = 0;

interface EventRow {
  clip: string;
  class: string;
  track: number;
  start: number;
  end: number;
  boxes: number;
  meanScore: number;
}

async function exportEvents(...extra: string[]): Promise<{ header: string[]; rows: EventRow[] }> {
  const out = join(t.dir, `events-${++outN}.csv`);
  const r = await runCli(['export', '--format', 'events', '--out', out, ...extra], env);
  expect(r.code, r.stderr).toBe(0);
  const text = await readFile(out, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const [header = [], ...rows] = parseCsv(text);
  return {
    header,
    rows: rows.map(([clip, cls, track, start, end, boxes, score]) => ({
      clip: clip as string,
      class: cls as string,
      track: Number(track),
      start: Number(start),
      end: Number(end),
      boxes: Number(boxes),
      meanScore: Number(score),
    })),
  };
}

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home);
  const folder = join(t.dir, 'gate "north", west');
  await mkdir(folder);
  clipPath = join(folder, 'vtest, first 10 s.avi');
  const src = join(await realMediaDir(), 'vtest.avi');
  await run('ffmpeg', ['-v', 'error', '-y', '-i', src, '-t', '10', '-c', 'copy', clipPath]);
  const r = await runCli(['label', folder, '--yes'], env, { timeoutMs: 300_000 });
  expect(r.code, r.stderr).toBe(0);
}, 320_000);
afterAll(() => t.remove());

describe('labeldesk export --format events', () => {
  it('writes one row per track per range, agreeing with the MOT export of the same tracks', async () => {
    const { header, rows } = await exportEvents();
    expect(header).toEqual(['clip', 'class', 'track', 'start', 'end', 'boxes', 'meanScore']);
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) {
      expect(r.clip).toBe(clipPath);
      expect(r.end).toBeGreaterThanOrEqual(r.start);
      expect(r.start).toBeGreaterThanOrEqual(0);
      expect(r.end).toBeLessThanOrEqual(10);
    }
    expect(rows.map((r) => r.class)).toContain('person');

    const motDir = join(t.dir, 'mot');
    const m = await runCli(['export', '--format', 'mot', '--out', motDir], env);
    expect(m.code, m.stderr).toBe(0);
    const [, source] = parseCsv(await readFile(join(motDir, 'sources.csv'), 'utf8'));
    const fps = Number(source?.[4]);
    expect(fps).toBeGreaterThan(0);
    const byTrack = new Map<number, ReadBox[]>();
    // MOT writes a box in no track as a track of its own, numbered after the clip's tracks
    // (issue 28: ids of 1 or more); the events list the clip's tracks only.
    const lastTrack = Math.max(...rows.map((r) => r.track));
    const alone = new Map<number, number>();
    for (const b of await readMot(motDir)) {
      if (b.track === undefined || b.track < 0) continue;
      if (b.track > lastTrack) alone.set(b.track, (alone.get(b.track) ?? 0) + 1);
      else byTrack.set(b.track, [...(byTrack.get(b.track) ?? []), b]);
    }
    expect([...alone.values()].every((n) => n === 1)).toBe(true);
    // Every track of the clip is in the events, with all its boxes, once per range it is in.
    expect(new Set(rows.map((r) => r.track))).toEqual(new Set(byTrack.keys()));
    for (const [track, boxes] of byTrack) {
      const mine = rows.filter((r) => r.track === track).sort((a, b) => a.start - b.start);
      expect(mine.reduce((n, r) => n + r.boxes, 0)).toBe(boxes.length);
      expect(new Set(mine.map((r) => r.class))).toEqual(new Set([boxes[0]?.label]));
      const frames = boxes.map((b) => (b.frame as number) - 1);
      // MOT's frame is the box's time on the clip's frame grid: within half a frame of it.
      expect(Math.abs((mine[0] as EventRow).start * fps - Math.min(...frames))).toBeLessThan(0.51);
      expect(Math.abs((mine.at(-1) as EventRow).end * fps - Math.max(...frames))).toBeLessThan(
        0.51,
      );
      const mean = boxes.reduce((s, b) => s + (b.score ?? 0), 0) / boxes.length;
      const weighted = mine.reduce((s, r) => s + r.meanScore * r.boxes, 0) / boxes.length;
      expect(weighted).toBeCloseTo(mean, 3);
      // Ranges of one track never overlap.
      for (let i = 1; i < mine.length; i++) {
        expect((mine[i] as EventRow).start).toBeGreaterThan((mine[i - 1] as EventRow).end);
      }
    }
  });

  it('leaves out a track a person rejected; the other tracks keep their rows', async () => {
    const before = (await exportEvents()).rows;
    const longest = [...before].sort((a, b) => b.boxes - a.boxes)[0] as EventRow;
    const store = openLibraryStore(join(t.home, 'library.sqlite'));
    try {
      const clip = store.media.byPath(clipPath);
      expect(clip).toBeDefined();
      const done = await callReview(store, () => undefined, 'review.editTrack', {
        id: clip?.id as number,
        solution: 'objects',
        trackIds: [longest.track],
        kind: 'reject',
      });
      expect(done.changed).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    const after = (await exportEvents()).rows;
    // Tracks numbered after it may move down one id (the tracker numbers the tracks it finds).
    const unnumbered = (list: EventRow[]) =>
      list.map(({ track: _, ...r }) => JSON.stringify(r)).sort();
    expect(unnumbered(after)).toEqual(unnumbered(before.filter((r) => r !== longest)));
  });
});
