/**
 * `labeldesk import` as a user runs it: a labelled library (with a person's moves, deletions and
 * drawn boxes, an EXIF-rotated photo and a clip) is exported as COCO, YOLO, VOC and CSV; a fresh
 * library over a copy of the files (other paths: matched by name) imports each, and its export
 * gives the same boxes (±0.01 px) and labels. Importing again adds nothing; re-analysis keeps the
 * imported labels; a person's later edit is never overwritten by another import.
 */
import { cp, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewService } from '../../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { openDatabase } from '../../../electron/node-lib/sqlite.js';
import { readCoco, readCsv, readVoc, readYolo, type ReadBox } from '../../support/cli-exports.js';
import { distinctJpegs, orientedJpeg } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { clip } from '../../support/synth-media.js';

type Home = Awaited<ReturnType<typeof cliHome>>;
let src: Home;
let dst: Home;
let srcEnv: NodeJS.ProcessEnv;
let dstEnv: NodeJS.ProcessEnv;
let copy: string;
const exported: Record<string, string> = {};

const FILES: Record<string, string> = { coco: 'a.json', csv: 'a.csv', yolo: 'yolo', voc: 'voc' };

async function exportFrom(env: NodeJS.ProcessEnv, dir: string, format: string): Promise<string> {
  const out = join(dir, `${format}-${Date.now()}-${FILES[format]}`);
  const r = await runCli(['export', '--format', format, '--out', out], env);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

async function boxesOf(format: string, out: string): Promise<ReadBox[]> {
  if (format === 'coco') return (await readCoco(out)).boxes;
  if (format === 'csv') return readCsv(out);
  if (format === 'yolo') return (await readYolo(out)).boxes;
  return readVoc(out);
}

/** Displayed sizes by file name (from the first COCO export), to put YOLO's corners in pixels. */
const sizes = new Map<string, { width: number; height: number }>();

/** Sorted file name, label, frame and corners in pixels: comparable across libraries. */
function shape(boxes: ReadBox[]): { key: string; c: number[] }[] {
  return boxes
    .map((b) => {
      const size = b.width === 1 ? sizes.get(basename(b.path)) : { width: 1, height: 1 };
      if (!size) throw new Error(`no size for ${b.path}`);
      const c = [
        b.xmin * size.width,
        b.ymin * size.height,
        b.xmax * size.width,
        b.ymax * size.height,
      ];
      return { key: `${basename(b.path)}|${b.label}|${b.frame ?? ''}`, c };
    })
    .sort((a, b) => a.key.localeCompare(b.key) || (a.c[0] as number) - (b.c[0] as number));
}

function expectSameBoxes(actual: ReadBox[], expected: ReadBox[]): void {
  const a = shape(actual);
  const e = shape(expected);
  expect(a.map((x) => x.key)).toEqual(e.map((x) => x.key));
  a.forEach((x, i) =>
    x.c.forEach((v, j) =>
      expect(Math.abs(v - (e[i]?.c[j] as number))).toBeLessThanOrEqual(0.01 + 1e-9),
    ),
  );
}

function withStore<T>(home: string, fn: (s: ReturnType<typeof openLibraryStore>) => T): T {
  const store = openLibraryStore(join(home, 'library.sqlite'));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

const ref = (b: { detectionId: number | null; correctionId: number | null }) => ({
  detectionId: b.detectionId,
  correctionId: b.correctionId,
});

beforeAll(async () => {
  src = await cliHome();
  dst = await cliHome();
  srcEnv = cliEnv(src.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  dstEnv = cliEnv(dst.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  const folder = join(src.dir, 'set');
  await mkdir(folder);
  await distinctJpegs(folder, 2);
  await orientedJpeg(join(folder, 'portrait.jpg'), 320, 240);
  await clip(folder, 'walk.mp4', 2, '160x120', 10);
  const r = await runCli(['label', folder, '--yes'], srcEnv);
  expect(r.code, r.stderr).toBe(0);
  // A person's work, so that the labels differ from what the model says on the copy.
  withStore(src.home, (store) => {
    const review = new ReviewService(store);
    for (const name of ['portrait.jpg', 'walk.mp4']) {
      const media = store.media.byPath(join(folder, name))!;
      const boxes = review.item(media.id, 'objects').boxes;
      expect(boxes.length).toBeGreaterThanOrEqual(2);
      const [first, second] = boxes as [(typeof boxes)[0], (typeof boxes)[0]];
      review.edit(media.id, 'objects', {
        kind: 'move',
        box: ref(first),
        bbox: { x: 0.1234, y: 0.2345, w: 0.3456, h: 0.4567 },
      });
      review.edit(media.id, 'objects', { kind: 'delete', box: ref(second) });
      review.edit(media.id, 'objects', {
        kind: 'add',
        frameIndex: first.frameIndex,
        timeMs: first.timeMs,
        label: 'kite, "red"',
        bbox: { x: 0.05, y: 0.06, w: 0.3, h: 0.2 },
      });
    }
  });
  for (const format of Object.keys(FILES)) {
    exported[format] = await exportFrom(srcEnv, src.dir, format);
  }
  for (const i of (await readCoco(exported['coco'] as string)).doc.images) {
    sizes.set(basename(i.absolute_path), { width: i.width, height: i.height });
  }
  // The fresh library sees the same files elsewhere, analysed by the same (deterministic) model.
  copy = join(dst.dir, 'copied');
  await cp(folder, copy, { recursive: true });
  const d = await runCli(['label', copy, '--yes'], dstEnv);
  expect(d.code, d.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await src?.remove();
  await dst?.remove();
});

describe('labeldesk import', () => {
  for (const format of ['coco', 'yolo', 'voc', 'csv']) {
    it(`${format}: export → import into a fresh library → export gives the same boxes`, async () => {
      const source = exported[format] as string;
      const r = await runCli(['import', '--format', format, source, '--json'], dstEnv);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const summary = lastJson<{ files: number; unchanged: number; issues: unknown[] }>(r.stdout);
      expect(summary.issues).toEqual([]);
      // COCO, YOLO and VOC hold the three photos; CSV the clip too.
      expect(summary.files + summary.unchanged).toBe(format === 'csv' ? 4 : 3);
      // Imported files are reviewed, by the import.
      const marks = withStore(dst.home, (store) =>
        ['photo0.jpg', 'photo1.jpg', 'portrait.jpg'].map(
          (n) => store.reviewed.of(store.media.byPath(join(copy, n))!.id, 'objects')?.reviewedBy,
        ),
      );
      expect(marks).toEqual(['import', 'import', 'import']);
      const again = await exportFrom(dstEnv, dst.dir, format);
      expectSameBoxes(await boxesOf(format, again), await boxesOf(format, source));
    });
  }

  it('importing the same labels again writes nothing', async () => {
    const count = () => {
      const db = openDatabase(join(dst.home, 'library.sqlite'));
      try {
        return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM corrections').get()?.n;
      } finally {
        db.close();
      }
    };
    const before = count();
    // A person declares one file reviewed: an import that changes nothing leaves that theirs.
    const photo1 = join(copy, 'photo1.jpg');
    const markOf = () =>
      withStore(dst.home, (s) => s.reviewed.of(s.media.byPath(photo1)!.id, 'objects')?.reviewedBy);
    withStore(dst.home, (s) =>
      s.reviewed.markReviewed([s.media.byPath(photo1)!.id], 'objects', 'person'),
    );
    const r = await runCli(['import', '--format', 'csv', exported['csv'] as string], dstEnv);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^Imported \d+ boxes into 4 files \(4 already so\); 0 issues$/m);
    expect(count()).toBe(before);
    expect(markOf()).toBe('person');
  });

  it('keeps imported labels through re-analysis, and never overwrites a later edit', async () => {
    const r = await runCli(['label', copy, '--reanalyse', '--yes'], dstEnv);
    expect(r.code, r.stderr).toBe(0);
    const after = await exportFrom(dstEnv, dst.dir, 'csv');
    expectSameBoxes(await readCsv(after), await readCsv(exported['csv'] as string));

    const photo = join(copy, 'photo0.jpg');
    withStore(dst.home, (store) => {
      const review = new ReviewService(store);
      const media = store.media.byPath(photo)!;
      const shown = review.item(media.id, 'objects').boxes.filter((b) => !b.deleted);
      review.edit(media.id, 'objects', { kind: 'relabel', box: ref(shown[0]!), label: 'zebra' });
    });
    const again = await runCli(['import', '--format', 'coco', exported['coco'] as string], dstEnv);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(
      /has_corrections {2}.*photo0\.jpg already has a person's corrections/,
    );
    const labels = withStore(dst.home, (store) => {
      const media = store.media.byPath(photo)!;
      return new ReviewService(store)
        .item(media.id, 'objects')
        .boxes.filter((b) => !b.deleted)
        .map((b) => b.label);
    });
    expect(labels).toContain('zebra');
  });
});
