/**
 * Export of the corrected set: a real library of 100,000 images × 10 model boxes, in which people
 * edited 20 % of the boxes (moved, half of them relabelled), accepted 30 %, deleted one box in
 * every tenth image and drew one in another tenth; exported to COCO through the store's streaming
 * reader. Baseline in the same run: the same library before any correction (today's model-box
 * export). Each export in its own child process so its peak RSS is its own.
 */
import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { exportLibrary } from '../electron/core/export/export-library.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import type { CorrectionInput, LibraryStore } from '../electron/core/store/store-types.js';
import {
  BOXES,
  boxOf,
  buildLibrary,
  CLASSES,
  IMAGES,
  labelOf,
  realContentHash,
  scoreByBox,
} from './bench-library.js';
import { fmt, printFigures } from './report.js';

const GOAL_RATIO = 1.2;
const GOAL_RSS_MB = 300;
const self = fileURLToPath(import.meta.url);
const run = promisify(execFile);

/** What people did to image i, as the review screen would have stored it. */
function correctionsOf(i: number): CorrectionInput[] {
  const out: CorrectionInput[] = [];
  const base = {
    contentHash: realContentHash(i),
    solution: 'objects',
    frameIndex: 0,
    timeMs: null,
  };
  for (let k = 0; k < BOXES; k++) {
    const n = i * BOXES + k;
    const edited = n % 5 === 0;
    const accepted = n % 10 < 3;
    const deleted = i % 10 === 1 && k === 9;
    if (!edited && !accepted && !deleted) continue;
    const bbox = boxOf(i, k);
    out.push({
      ...base,
      anchor: { label: labelOf(i, k), score: scoreByBox(i, k), bbox },
      label: edited && n % 10 === 0 ? labelOf(i, k + 1) : null,
      bbox: edited ? { ...bbox, x: bbox.x + 0.01 } : null,
      review: accepted ? 'accepted' : 'pending',
      deleted,
    });
  }
  if (i % 10 === 2) {
    out.push({
      ...base,
      anchor: null,
      label: 'drawn',
      bbox: { x: 0.9, y: 0.9, w: 0.05, h: 0.05 },
      review: 'accepted',
      deleted: false,
    });
  }
  return out;
}

function addCorrections(store: LibraryStore): number {
  let count = 0;
  for (let start = 0; start < IMAGES; start += 1000) {
    const batch: CorrectionInput[] = [];
    for (let i = start; i < Math.min(IMAGES, start + 1000); i++) batch.push(...correctionsOf(i));
    store.corrections.putMany(batch);
    count += batch.length;
  }
  return count;
}

interface ChildFigures {
  seconds: number;
  /** CPU time of the export (all threads): less moved than wall time by a busy shared machine. */
  cpuSeconds: number;
  boxes: number;
  bytes: number;
  maxRssMb: number;
}

async function exportOnce(file: string, out: string): Promise<Omit<ChildFigures, 'maxRssMb'>> {
  const store = openLibraryStore(file);
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const summary = await exportLibrary({
      items: store.exportItems({ solution: 'objects' }),
      format: 'coco',
      out,
      classes: CLASSES,
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    return { seconds, cpuSeconds, boxes: summary.boxes, bytes: (await stat(out)).size };
  } finally {
    store.close();
  }
}

async function inChild(file: string, out: string): Promise<ChildFigures> {
  const { stdout } = await run(process.execPath, [self, 'child', file, out], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildFigures;
}

export async function benchExportCorrected(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-corrected-'));
  try {
    const model = join(dir, 'model.sqlite');
    const corrected = join(dir, 'corrected.sqlite');
    const t0 = performance.now();
    buildLibrary(model);
    copyFileSync(model, corrected);
    const store = openLibraryStore(corrected);
    const t1 = performance.now();
    const corrections = addCorrections(store);
    const correctSeconds = (performance.now() - t1) / 1000;
    store.close();
    const buildSeconds = (performance.now() - t0) / 1000;
    const base = await inChild(model, join(dir, 'model.json'));
    const r = await inChild(corrected, join(dir, 'corrected.json'));
    const ratio = r.seconds / base.seconds;
    printFigures(
      `Export of the corrected set (${IMAGES} images, ${IMAGES * BOXES} model boxes, ${corrections} corrections; COCO from a real library)`,
      [
        {
          name: `corrected export (${r.boxes} boxes, ${fmt(r.bytes / 2 ** 20, 0)} MB)`,
          value: `${fmt(r.seconds, 2)} s; ${fmt(ratio, 2)}× the model-box export`,
          goal: `≤ ${GOAL_RATIO}×`,
          met: ratio <= GOAL_RATIO,
        },
        {
          name: 'corrected export peak RSS',
          value: `${fmt(r.maxRssMb, 0)} MB (model-box export ${fmt(base.maxRssMb, 0)} MB)`,
          goal: `≤ ${GOAL_RSS_MB} MB`,
          met: r.maxRssMb <= GOAL_RSS_MB,
        },
        {
          name: `baseline: today's model-box export (${base.boxes} boxes)`,
          value: `${fmt(base.seconds, 2)} s`,
        },
        {
          name: 'CPU time, corrected / model-box export (for a busy machine; the goal is on wall time)',
          value: `${fmt(r.cpuSeconds, 2)} s / ${fmt(base.cpuSeconds, 2)} s; ${fmt(r.cpuSeconds / base.cpuSeconds, 2)}×`,
        },
        {
          name: 'setup: library built / corrections stored (putMany, 1,000 images per call)',
          value: `${fmt(buildSeconds, 1)} s / ${fmt(correctSeconds, 1)} s`,
        },
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Child mode: `node export-corrected-bench.js child <library> <out>` prints one JSON line.
if (process.argv[1] && resolve(process.argv[1]) === self && process.argv[2] === 'child') {
  const figures = await exportOnce(process.argv[3] ?? '', process.argv[4] ?? '');
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ...figures, maxRssMb })}\n`);
}
