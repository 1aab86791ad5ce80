/**
 * Export: 100,000 images with 1,000,000 boxes from a synthetic item generator, to COCO and to
 * YOLO, each in its own child process so its peak RSS is its own. Baselines in the same run: the
 * same number of lines through a plain write stream (COCO's floor) and the same number of small
 * files written with bare writeFileSync calls (YOLO's floor).
 */
import { execFile } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { exportLibrary } from '../electron/core/export/export-library.js';
import type { ExportItem } from '../electron/core/store/store-types.js';
import { fmt, printFigures } from './report.js';

const IMAGES = 100_000;
const BOXES_PER_IMAGE = 10;
const CLASSES = Array.from({ length: 80 }, (_, i) => `class ${i}, "c${i}"`);
const GOAL_SECONDS = 15;
const GOAL_RSS_MB = 300;
const self = fileURLToPath(import.meta.url);
const run = promisify(execFile);

type Mode = 'coco' | 'yolo' | 'lines' | 'files';
interface ChildFigures {
  seconds: number;
  maxRssMb: number;
  boxes: number;
  bytes: number;
}

/** Lazily made items, so memory measured is the writer's: ten cameras with equal file names. */
function* syntheticItems(): Generator<ExportItem> {
  let detectionId = 1;
  for (let i = 0; i < IMAGES; i++) {
    const rotated = i % 4 === 0;
    const media = {
      id: i + 1,
      folderId: 1,
      path: `/data/cam-${i % 10}/frame-${Math.floor(i / 10)}.jpg`,
      kind: 'image' as const,
      size: 250_000,
      mtimeMs: 0,
      contentHash: null,
      width: 1920,
      height: 1080,
      orientation: rotated ? 6 : 1,
      durationMs: null,
      fps: null,
      status: 'present' as const,
      errorCode: null,
      errorMessage: null,
    };
    const result = {
      id: i + 1,
      contentHash: `h${i}`,
      solution: 'objects',
      serviceUrl: 'local',
      analysedWidth: rotated ? 360 : 640,
      analysedHeight: rotated ? 640 : 360,
      model: 'centernet',
      boxCount: BOXES_PER_IMAGE,
      createdAt: 0,
    };
    const detections = Array.from({ length: BOXES_PER_IMAGE }, (_, k) => {
      const x = ((i * 7 + k * 13) % 90) / 100;
      const y = ((i * 3 + k * 29) % 90) / 100;
      return {
        id: detectionId++,
        resultId: i + 1,
        frameIndex: 0,
        timeMs: null,
        label: CLASSES[(i + k) % CLASSES.length] ?? '',
        classId: (i + k) % CLASSES.length,
        score: 0.3 + (k % 7) / 10,
        bbox: { x, y, w: 0.1, h: 0.08 },
        origin: 'model' as const,
        review: 'pending' as const,
      };
    });
    yield { media, result, detections };
  }
}

async function runMode(mode: Mode, out: string): Promise<Omit<ChildFigures, 'maxRssMb'>> {
  const t0 = performance.now();
  let boxes = IMAGES * BOXES_PER_IMAGE;
  if (mode === 'coco' || mode === 'yolo') {
    const summary = await exportLibrary({
      items: syntheticItems(),
      format: mode,
      out,
      classes: CLASSES,
    });
    boxes = summary.boxes;
  } else if (mode === 'lines') {
    const line = `{"id":123456,"image_id":12345,"category_id":12,"bbox":[123.45,678.9,192,86.4],"area":16588.8,"iscrowd":0,"score":0.9}\n`;
    const stream = createWriteStream(out);
    for (let i = 0; i < IMAGES + boxes; i++) {
      if (!stream.write(line)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'close');
  } else {
    await mkdir(out);
    const text = '12 0.512345 0.412345 0.1 0.08\n'.repeat(BOXES_PER_IMAGE);
    for (let i = 0; i < IMAGES; i++) writeFileSync(join(out, `f${i}.txt`), text);
  }
  const seconds = (performance.now() - t0) / 1000;
  const bytes = mode === 'yolo' || mode === 'files' ? 0 : (await stat(out)).size;
  return { seconds, boxes, bytes };
}

async function inChild(mode: Mode, out: string): Promise<ChildFigures> {
  const { stdout } = await run(process.execPath, [self, 'child', mode, out], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildFigures;
}

export async function benchExport(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-export-'));
  try {
    const figures = [];
    const results: Record<Mode, ChildFigures> = {} as Record<Mode, ChildFigures>;
    for (const mode of ['lines', 'coco', 'files', 'yolo'] as const) {
      const out = join(dir, mode === 'coco' || mode === 'lines' ? `${mode}.json` : mode);
      results[mode] = await inChild(mode, out);
      await rm(out, { recursive: true, force: true });
    }
    for (const mode of ['coco', 'yolo'] as const) {
      const r = results[mode];
      const base = results[mode === 'coco' ? 'lines' : 'files'];
      const size = r.bytes ? `, ${fmt(r.bytes / 2 ** 20, 0)} MB` : '';
      figures.push(
        {
          name: `${mode.toUpperCase()} export time (${r.boxes} boxes${size})`,
          value: `${fmt(r.seconds, 2)} s; ${fmt(r.boxes / r.seconds / 1000, 0)}k boxes/s; ${fmt(r.seconds / base.seconds, 1)}× the baseline`,
          goal: `≤ ${GOAL_SECONDS} s`,
          met: r.seconds <= GOAL_SECONDS && r.boxes === IMAGES * BOXES_PER_IMAGE,
        },
        {
          name: `${mode.toUpperCase()} export peak RSS`,
          value: `${fmt(r.maxRssMb, 0)} MB (baseline process ${fmt(base.maxRssMb, 0)} MB)`,
          goal: `≤ ${GOAL_RSS_MB} MB`,
          met: r.maxRssMb <= GOAL_RSS_MB,
        },
      );
    }
    figures.push(
      {
        name: `baseline: ${IMAGES + IMAGES * BOXES_PER_IMAGE} lines through a plain write stream`,
        value: `${fmt(results.lines.seconds, 2)} s`,
      },
      {
        name: `baseline: ${IMAGES} small files written with plain writeFileSync`,
        value: `${fmt(results.files.seconds, 2)} s`,
      },
    );
    printFigures(
      `Export (${IMAGES} images, ${IMAGES * BOXES_PER_IMAGE} boxes, synthetic items, one child process each)`,
      figures,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Child mode: `node export-bench.js child <mode> <out>` prints one JSON line of figures.
if (process.argv[1] && resolve(process.argv[1]) === self && process.argv[2] === 'child') {
  const figures = await runMode(process.argv[3] as Mode, process.argv[4] ?? '');
  // maxRSS is in kilobytes.
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ...figures, maxRssMb })}\n`);
}
