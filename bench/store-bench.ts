/** The library store against bare better-sqlite3: box inserts, a page of media, a streamed export. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import type { DetectionInput, ResultInput } from '../electron/core/store/store-types.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import { fmt, printFigures } from './report.js';

const LABELS = ['person', 'car', 'dog', 'cat', 'bicycle'];
/** Results per saveMany call: a handful of answers, a busy second of them, a large flush. */
const BATCHES = [4, 16, 64, 256];

/**
 * A library of `media` images with `boxes` detections each, written straight in SQL (one
 * statement per table, one transaction): about a second per million boxes instead of a minute of
 * saves. Paths are /bench/0000000.jpg…, each file its own content and one 'objects' result.
 */
export function buildSyntheticLibrary(file: string, media: number, boxes: number): void {
  openLibraryStore(file).close();
  const db = openDatabase(file);
  const series = `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${media})`;
  db.transaction(() => {
    db.exec(`INSERT INTO folders (id, path, added_at) VALUES (1, '/bench', 0)`);
    db.exec(`${series} INSERT INTO media (folder_id, path, kind, size, mtime_ms, content_hash,
      width, height) SELECT 1, printf('/bench/%07d.jpg', i), 'image', 10000 + i, 1.7e12 + i,
      printf('%064d', i), 640, 480 FROM s`);
    db.exec(`${series} INSERT INTO results (id, content_hash, solution, service_url,
      analysed_width, analysed_height, model, box_count, created_at)
      SELECT i + 1, printf('%064d', i), 'objects', 'http://bench', 640, 480, 'centernet', ${boxes}, 0
      FROM s`);
    db.exec(`WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j + 1 < ${boxes})
      INSERT INTO detections (result_id, frame_index, label, class_id, score, x, y, w, h)
      SELECT r.id, 0, json_extract('${JSON.stringify(LABELS)}', '$[' || (j % 5) || ']'), j % 5,
        0.3 + (r.id * 7 + j * 13) % 70 / 100.0, 0.1, 0.1, 0.2, 0.2
      FROM results r, k ORDER BY r.id, j`);
  })();
  db.close();
}

function detections(n: number, seed: number): DetectionInput[] {
  return Array.from({ length: n }, (_, j) => ({
    frameIndex: j % 50,
    timeMs: null,
    label: LABELS[j % LABELS.length] ?? 'person',
    classId: j % LABELS.length,
    score: ((seed + j) % 100) / 100,
    bbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 },
  }));
}

/** Rows per second through `results.save`, `perSave` boxes per call (one transaction each). */
function saveRate(file: string, total: number, perSave: number): number {
  const store = openLibraryStore(file);
  const inputs: ResultInput[] = Array.from({ length: total / perSave }, (_, i) => ({
    contentHash: `${perSave}-${i}`,
    solution: 'objects',
    serviceUrl: 'http://bench',
    analysedWidth: 640,
    analysedHeight: 480,
    model: 'centernet',
    detections: detections(perSave, i),
  }));
  const t0 = performance.now();
  for (const r of inputs) store.results.save(r);
  const seconds = (performance.now() - t0) / 1000;
  store.close();
  return total / seconds;
}

/** Rows per second through `results.saveMany`: `perSave` boxes per result, `batch` results per call. */
function saveManyRate(file: string, total: number, perSave: number, batch: number): number {
  const store = openLibraryStore(file);
  const inputs: ResultInput[] = Array.from({ length: total / perSave }, (_, i) => ({
    contentHash: `many-${perSave}-${i}`,
    solution: 'objects',
    serviceUrl: 'http://bench',
    analysedWidth: 640,
    analysedHeight: 480,
    model: 'centernet',
    detections: detections(perSave, i),
  }));
  const t0 = performance.now();
  for (let i = 0; i < inputs.length; i += batch) store.results.saveMany(inputs.slice(i, i + batch));
  const seconds = (performance.now() - t0) / 1000;
  store.close();
  return total / seconds;
}

/** The ceiling: the same columns in a bare table, positional inserts, one transaction. */
function bareInsertRate(file: string, total: number): number {
  const db = openDatabase(file);
  db.exec(`CREATE TABLE bare (id INTEGER PRIMARY KEY, result_id INTEGER, frame_index INTEGER,
    time_ms REAL, label TEXT, class_id INTEGER, score REAL, x REAL, y REAL, w REAL, h REAL,
    origin TEXT, review TEXT)`);
  const insert = db.prepare('INSERT INTO bare VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const rows = detections(total, 0);
  const t0 = performance.now();
  db.transaction(() => {
    rows.forEach((d, i) => {
      const b = d.bbox;
      insert.run(
        i,
        d.frameIndex,
        d.timeMs,
        d.label,
        d.classId,
        d.score,
        b.x,
        b.y,
        b.w,
        b.h,
        'model',
        'pending',
      );
    });
  })();
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  return total / seconds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function timeEach(starts: readonly string[], fn: (after: string) => number): number[] {
  return starts.map((after) => {
    const t0 = performance.now();
    if (fn(after) !== 200) throw new Error('a page did not have 200 rows');
    return performance.now() - t0;
  });
}

export async function benchStore(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-store-bench-'));
  try {
    const total = 200_000;
    bareInsertRate(join(dir, 'warm.sqlite'), 20_000);
    saveRate(join(dir, 'warm.sqlite'), 20_000, 10);
    const bare = bareInsertRate(join(dir, 'bare.sqlite'), total);
    const images = saveRate(join(dir, 'images.sqlite'), total, 10);
    const clips = saveRate(join(dir, 'clips.sqlite'), total, 1000);
    saveManyRate(join(dir, 'warm.sqlite'), 20_000, 10, 50);
    const many = BATCHES.map((batch) => ({
      batch,
      rate: saveManyRate(join(dir, `many-${batch}.sqlite`), total, 10, batch),
    }));
    printFigures(`Store: detection rows inserted (${total} rows, fresh WAL databases)`, [
      { name: 'bare table, prepared inserts, one transaction', value: `${fmt(bare, 0)} rows/s` },
      {
        name: 'results.save, 10 boxes per save (an image; one transaction each)',
        value: `${fmt(images, 0)} rows/s; store / bare = ${fmt(images / bare, 2)}`,
        goal: '≥ 100000 rows/s',
        met: images >= 100_000,
      },
      {
        name: 'results.save, 1000 boxes per save (a clip)',
        value: `${fmt(clips, 0)} rows/s; store / bare = ${fmt(clips / bare, 2)}`,
        goal: '≥ 100000 rows/s',
        met: clips >= 100_000,
      },
      ...many.map(({ batch, rate }) => ({
        name: `results.saveMany, ${batch} images of 10 boxes per call (one transaction each)`,
        value: `${fmt(rate, 0)} rows/s; store / bare = ${fmt(rate / bare, 2)}; ${fmt(rate / images, 2)}× save`,
        goal: '≥ 100000 rows/s',
        met: rate >= 100_000,
      })),
    ]);

    const media = 100_000;
    const file = join(dir, 'library.sqlite');
    const t0 = performance.now();
    buildSyntheticLibrary(file, media, 10);
    const buildSeconds = (performance.now() - t0) / 1000;

    const store = openLibraryStore(file);
    const raw = openDatabase(file);
    const bareStmt = raw.prepare('SELECT * FROM media WHERE path > ? ORDER BY path LIMIT 200');
    // Page starts spread over the whole library, visited in random order.
    const starts = Array.from({ length: 400 }, () => {
      const i = Math.floor(Math.random() * (media - 200));
      return `/bench/${String(i).padStart(7, '0')}.jpg`;
    });
    const page = (after: string) =>
      store.media.page({ solution: 'objects', limit: 200, afterPath: after }).length;
    const barePage = (after: string) => bareStmt.all(after).length;
    timeEach(starts.slice(0, 50), page);
    timeEach(starts.slice(0, 50), barePage);
    const pageMs = median(timeEach(starts, page));
    const bareMs = median(timeEach(starts, barePage));
    const boxed = store.media.page({ solution: 'objects', limit: 200 });
    if (boxed.some((r) => r.boxCount !== 10)) throw new Error('box counts are wrong');

    // Export: every item with its boxes, against iterating the bare joined rows.
    const e0 = performance.now();
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    let items = 0;
    let boxes = 0;
    for (const item of store.exportItems({ solution: 'objects' })) {
      items++;
      boxes += item.detections.length;
      if (items % 5000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    const exportSeconds = (performance.now() - e0) / 1000;
    // Bare: the same two reads (items in path order, then each item's boxes), raw arrays.
    const b0 = performance.now();
    let bareRows = 0;
    const bareBoxes = raw.prepare('SELECT * FROM detections WHERE result_id = ?').raw();
    for (const row of raw
      .prepare(
        `SELECT r.id, m.* FROM media m JOIN results r ON r.content_hash = m.content_hash
         AND r.solution = 'objects' ORDER BY m.path`,
      )
      .raw()
      .iterate()) {
      bareRows += bareBoxes.all((row as [number])[0]).length;
    }
    const bareExportSeconds = (performance.now() - b0) / 1000;
    raw.close();
    store.close();

    printFigures(
      `Store: ${media} media, ${media * 10} detections (built in ${fmt(buildSeconds, 1)} s)`,
      [
        {
          name: 'bare SELECT … LIMIT 200 by path, median of 400 pages',
          value: `${fmt(bareMs, 2)} ms`,
        },
        {
          name: 'media.page of 200 with box counts, median of 400 pages',
          value: `${fmt(pageMs, 2)} ms; store / bare = ${fmt(pageMs / bareMs, 2)}`,
          goal: '≤ 5 ms',
          met: pageMs <= 5,
        },
        {
          name: 'bare: the same reads as raw arrays (no objects built)',
          value: `${fmt(bareRows / bareExportSeconds, 0)} boxes/s`,
        },
        {
          name: 'exportItems, streamed and grouped',
          value: `${items} items, ${boxes} boxes in ${fmt(exportSeconds, 1)} s (${fmt(
            boxes / exportSeconds,
            0,
          )} boxes/s; store / bare = ${fmt(boxes / exportSeconds / (bareRows / bareExportSeconds), 2)}); heap grew at most ${fmt(
            (peak - heap0) / 2 ** 20,
            0,
          )} MB`,
          goal: 'bounded memory (< 100 MB growth)',
          met: items === media && boxes === media * 10 && peak - heap0 < 100 * 2 ** 20,
        },
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
