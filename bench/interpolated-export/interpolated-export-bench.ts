/**
 * Interpolated export at the scale of a 2-hour clip (`npm run bench -- interpolated-export`): a
 * real SQLite library with one clip at 25 fps analysed at 1 fps (7,200 samples, 50,000 boxes)
 * exported as interpolated MOT (every frame of every track, about 1.25 million lines) and as
 * interpolated CSV (the same boxes, one row each) through the same use-case as the app and the
 * CLI, each in a child process so its peak RSS is its own. Baseline in
 * the same run: the same number of MOT lines written from precomputed arrays through a plain write
 * stream (the floor of any MOT writer).
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runExport } from '../../electron/application/export-use-case.js';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import { fmt, printFigures } from '../report.js';
import { buildLongClipStore, LONG_CLIP } from './long-clip-store.js';

const self = fileURLToPath(import.meta.url);
const run = promisify(execFile);
/** Memory must follow the tracks in view, not the clip's length (a whole clip held: ~2 GB). */
const GOAL_RSS_MB = 400;
const GOAL_SECONDS = 20;

type Mode = 'mot' | 'csv' | 'lines';
interface ChildFigures {
  seconds: number;
  lines: number;
  bytes: number;
  maxRssMb: number;
}

/** Interpolated MOT (a folder) or CSV (one file) of the library in `home`, into `out`. */
async function exportInterpolated(
  format: 'mot' | 'csv',
  home: string,
  out: string,
): Promise<Omit<ChildFigures, 'maxRssMb'>> {
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    const t0 = performance.now();
    const summary = await runExport(store, undefined, {
      format,
      out,
      solution: 'objects',
      interpolate: true,
      signal: new AbortController().signal,
    });
    const seconds = (performance.now() - t0) / 1000;
    if (format === 'csv') return { seconds, lines: summary.boxes, bytes: (await stat(out)).size };
    const clip = (await readdir(out)).find((n) => n.endsWith('.txt') && n !== 'classes.txt');
    const bytes = clip ? (await stat(join(out, clip))).size : 0;
    return { seconds, lines: summary.boxes, bytes };
  } finally {
    store.close();
  }
}

/** `lines` MOT lines from columns computed beforehand (not timed), through a plain stream. */
async function writeLines(lines: number, out: string): Promise<Omit<ChildFigures, 'maxRssMb'>> {
  const [frame, id, x, y, w, h] = Array.from({ length: 6 }, () => new Float64Array(lines)) as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  for (let i = 0; i < lines; i++) {
    frame[i] = Math.floor(i / 7) + 1;
    id[i] = (i % 7) + 1;
    x[i] = Math.round(((i * 37) % 1216) * 100 + 13) / 100;
    y[i] = Math.round(((i * 11) % 648) * 100 + 57) / 100;
    w[i] = 64;
    h[i] = Math.round(7200 + (i % 97)) / 100;
  }
  const t0 = performance.now();
  const stream = createWriteStream(out);
  for (let i = 0; i < lines; i++) {
    const line = `${frame[i]},${id[i]},${x[i]},${y[i]},${w[i]},${h[i]},0.5,${i % 3},-1,-1\n`;
    if (!stream.write(line)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'close');
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, lines, bytes: (await stat(out)).size };
}

async function inChild(mode: Mode, arg: string, out: string): Promise<ChildFigures> {
  const { stdout } = await run(process.execPath, [self, 'child', mode, arg, out], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildFigures;
}

export async function benchInterpolatedExport(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-interp-'));
  try {
    const t0 = performance.now();
    buildLongClipStore(dir);
    const built = (performance.now() - t0) / 1000;
    const mot = await inChild('mot', dir, join(dir, 'mot'));
    const csv = await inChild('csv', dir, join(dir, 'boxes.csv'));
    const base = await inChild('lines', String(mot.lines), join(dir, 'lines.txt'));
    const mb = (n: number) => fmt(n / 2 ** 20, 0);
    printFigures(
      `Interpolated export (2-hour clip at ${LONG_CLIP.fps} fps: ${LONG_CLIP.samples} analysed frames, ${LONG_CLIP.boxes} boxes; one child process each)`,
      [
        {
          name: `interpolated MOT export time (${mot.lines} lines, ${mb(mot.bytes)} MB)`,
          value: `${fmt(mot.seconds, 2)} s; ${fmt(mot.lines / mot.seconds / 1000, 0)}k lines/s; ${fmt(mot.seconds / base.seconds, 1)}× the baseline`,
          goal: `≤ ${GOAL_SECONDS} s`,
          met: mot.seconds <= GOAL_SECONDS,
        },
        {
          name: 'interpolated MOT export peak RSS',
          value: `${fmt(mot.maxRssMb, 0)} MB (baseline process, arrays included: ${fmt(base.maxRssMb, 0)} MB)`,
          goal: `≤ ${GOAL_RSS_MB} MB`,
          met: mot.maxRssMb <= GOAL_RSS_MB,
        },
        {
          name: `interpolated CSV export time (${csv.lines} rows, ${mb(csv.bytes)} MB)`,
          value: `${fmt(csv.seconds, 2)} s; ${fmt(csv.lines / csv.seconds / 1000, 0)}k rows/s; ${fmt(csv.seconds / mot.seconds, 2)}× MOT; peak RSS ${fmt(csv.maxRssMb, 0)} MB`,
          goal: `≤ ${GOAL_SECONDS} s`,
          met: csv.seconds <= GOAL_SECONDS,
        },
        {
          name: `baseline: ${base.lines} MOT lines from precomputed arrays through a plain write stream`,
          value: `${fmt(base.seconds, 2)} s, ${mb(base.bytes)} MB`,
        },
        { name: 'library built through the store (not timed above)', value: `${fmt(built, 1)} s` },
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Child mode: `node interpolated-export-bench.js child <mode> <home|lines> <out>` prints one JSON line.
if (process.argv[1] && resolve(process.argv[1]) === self && process.argv[2] === 'child') {
  const [mode, arg = '', out = ''] = process.argv.slice(3);
  const figures =
    mode === 'mot' || mode === 'csv'
      ? await exportInterpolated(mode, arg, out)
      : await writeLines(Number(arg), out);
  // maxRSS is in kilobytes.
  process.stdout.write(
    `${JSON.stringify({ ...figures, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}
