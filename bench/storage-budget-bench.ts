/**
 * Issue 27 §1's storage budget: the `objects` model now keeps boxes down to 0.05, about 13× more
 * per image. A 100k-image library of 60 boxes each (6M boxes, scores spread as CenterNet's are,
 * most of them low): bytes per stored box beside a bare table of the same columns with no index,
 * and the Library's grid and per-class counts at that size beside bare SQL over the same rows.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibraryView } from '../electron/core/library-view/library-view.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import { fmt, printFigures } from './report.js';
import { storageAtScaleFigures } from './storage-budget-more.js';

// LABELDESK_BENCH_STORAGE_MEDIA: a smaller library while the machine is shared (ratios still hold).
const MEDIA = Number(process.env['LABELDESK_BENCH_STORAGE_MEDIA'] ?? 100_000);
const BOXES = 60;
const MIN_SCORE = 0.3;
const RUNS = 3;
const LABELS = JSON.stringify(Array.from({ length: 80 }, (_, i) => `class${i}`));
const SERIES = `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ${MEDIA})`;
const PER_IMAGE = `WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j + 1 < ${BOXES})`;
// About one box in 13 at 0.3 or more, as CenterNet's on COCO photos (576 of 7,416 boxes).
const SCORE = `CASE WHEN (r.id * 7 + j * 13) % 13 = 0 THEN 0.3 + (r.id + j) % 70 / 100.0
  ELSE 0.05 + (r.id * 3 + j) % 25 / 100.0 END`;
// Boxes spread over the picture, with the precision a detector's floats have.
const BOX = `(r.id * 7 + j * 13) % 900 / 1000.0 + 0.000123, (r.id * 3 + j * 29) % 900 / 1000.0 + 0.000456,
  0.05 + j % 20 / 100.0 + 0.000789, 0.04 + j % 15 / 100.0 + 0.000321`;

/** The library's own tables and indexes, filled in SQL (saving 6M boxes one result at a time takes minutes). */
function buildLibrary(file: string, boxes: number): void {
  openLibraryStore(file).close();
  const db = openDatabase(file);
  db.transaction(() => {
    db.exec(`INSERT INTO folders (id, path, added_at) VALUES (1, '/bench', 0)`);
    db.exec(`${SERIES} INSERT INTO media (folder_id, path, kind, size, mtime_ms, content_hash,
      width, height) SELECT 1, printf('/bench/cam-%d/%07d.jpg', i % 10, i), 'image', 250000 + i,
      1.7e12 + i, printf('%064d', i), 1920, 1080 FROM s`);
    db.exec(`${SERIES} INSERT INTO results (id, content_hash, solution, service_url,
      analysed_width, analysed_height, model, box_count, created_at)
      SELECT i + 1, printf('%064d', i), 'objects', 'embedded', 512, 512, 'centernet', ${boxes}, 0
      FROM s`);
    if (boxes > 0)
      db.exec(`${PER_IMAGE} INSERT INTO detections (result_id, frame_index, label, class_id, score,
        x, y, w, h) SELECT r.id, 0, json_extract('${LABELS}', '$[' || ((r.id + j) % 80) || ']'),
        (r.id + j) % 80, ${SCORE}, ${BOX} FROM results r, k ORDER BY r.id, j`);
  })();
  db.exec('VACUUM');
  db.close();
}

/** The same boxes in one plain table, no index: what the bytes alone cost in SQLite. */
function buildBare(file: string): void {
  const db = openDatabase(file);
  db.exec(`CREATE TABLE results (id INTEGER PRIMARY KEY)`);
  db.exec(`CREATE TABLE detections (id INTEGER PRIMARY KEY, result_id INTEGER, frame_index INTEGER,
    label TEXT, class_id INTEGER, score REAL, x REAL, y REAL, w REAL, h REAL)`);
  db.transaction(() => {
    db.exec(`${SERIES} INSERT INTO results (id) SELECT i + 1 FROM s`);
    db.exec(`${PER_IMAGE} INSERT INTO detections (result_id, frame_index, label, class_id, score,
      x, y, w, h) SELECT r.id, 0, json_extract('${LABELS}', '$[' || ((r.id + j) % 80) || ']'),
      (r.id + j) % 80, ${SCORE}, ${BOX} FROM results r, k ORDER BY r.id, j`);
  })();
  db.exec('VACUUM');
  db.close();
}

/**
 * Median CPU time of `run` (synchronous SQLite on this thread): the machine is shared, and wall
 * time would measure the other jobs as much as these queries.
 */
function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cpu0 = process.cpuUsage();
    run();
    const cpu = process.cpuUsage(cpu0);
    times.push((cpu.user + cpu.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] as number;
}

const size = async (file: string) => (await stat(file)).size;

export async function benchStorageBudget(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-storage-'));
  try {
    const empty = join(dir, 'empty.sqlite');
    const full = join(dir, 'full.sqlite');
    const bare = join(dir, 'bare.sqlite');
    buildLibrary(empty, 0);
    buildLibrary(full, BOXES);
    buildBare(bare);
    const boxes = MEDIA * BOXES;
    const perBox = ((await size(full)) - (await size(empty))) / boxes;
    const barePerBox = (await size(bare)) / boxes;

    // Each call on a new view: the view caches answers until the database changes.
    const filter = { solution: 'objects' };
    const fresh = <T>(use: (view: LibraryView) => T, file = full) => {
      const view = new LibraryView(file);
      try {
        return use(view);
      } finally {
        view.close();
      }
    };
    // `shownFrom`: the tiles count from the library's minimum score, as the app asks for them.
    const page = (sort: 'path' | 'boxes', file = full, shownFrom = 0) =>
      fresh((v) => {
        v.count(filter);
        const f = { ...filter, shownFrom };
        return v.page({
          filter: f,
          sort,
          descending: sort === 'boxes',
          offset: Math.floor(MEDIA / 2),
          limit: 200,
        });
      }, file);
    const gridEmptyMs = median(() => page('path', empty));
    const gridMs = median(() => page('path'));
    const byBoxesMs = median(() => page('boxes'));
    const gridShownMs = median(() => page('path', full, MIN_SCORE));
    const byBoxesShownMs = median(() => page('boxes', full, MIN_SCORE));
    const classesMs = median(() => fresh((v) => v.classCounts({ ...filter, minScore: MIN_SCORE })));
    const raw = openDatabase(full);
    const bareClasses = raw.prepare(
      `SELECT label, count(*) FROM detections WHERE score IS NULL OR score >= ? GROUP BY label`,
    );
    const bareClassesMs = median(() => bareClasses.all(MIN_SCORE));
    const shown = raw
      .prepare('SELECT count(*) FROM detections WHERE score >= ?')
      .pluck()
      .get(MIN_SCORE) as number;
    raw.close();

    printFigures(
      `Storage at 13× the boxes (${MEDIA.toLocaleString('en')} images × ${BOXES} boxes = ${boxes.toLocaleString('en')}, ${shown.toLocaleString('en')} at score ≥ ${MIN_SCORE}; median CPU time of ${RUNS})`,
      [
        {
          name: 'bare table of the same columns, no index',
          value: `${fmt(barePerBox, 1)} B per box`,
        },
        {
          name: 'library (detections with their indexes)',
          value: `${fmt(perBox, 1)} B per box, ${fmt((await size(full)) / 2 ** 20, 0)} MiB file; ratio ${fmt(perBox / barePerBox, 2)}`,
          goal: '≤ 2× bare',
          met: perBox <= 2 * barePerBox,
        },
        {
          name: 'Library grid: count and a page of 200 in the middle, by path, same images without boxes',
          value: `${fmt(gridEmptyMs, 0)} ms of CPU`,
        },
        {
          name: 'the same with 60 boxes per image',
          value: `${fmt(gridMs, 0)} ms of CPU; ratio ${fmt(gridMs / gridEmptyMs, 2)}`,
          goal: '≤ 1.5× without boxes',
          met: gridMs <= 1.5 * gridEmptyMs,
        },
        {
          name: `the same, tiles counting boxes from the minimum score (${MIN_SCORE})`,
          value: `${fmt(gridShownMs, 0)} ms of CPU; ratio ${fmt(gridShownMs / gridEmptyMs, 2)}`,
          goal: '≤ 1.5× without boxes',
          met: gridShownMs <= 1.5 * gridEmptyMs,
        },
        {
          name: 'the same page sorted by boxes (all kept)',
          value: `${fmt(byBoxesMs, 0)} ms of CPU`,
        },
        {
          name: `sorted by boxes from the minimum score (${MIN_SCORE})`,
          value: `${fmt(byBoxesShownMs, 0)} ms of CPU`,
        },
        {
          name: 'bare GROUP BY label over the boxes at the minimum score',
          value: `${fmt(bareClassesMs, 0)} ms of CPU`,
        },
        {
          name: `boxes per class at the library's minimum score (${MIN_SCORE})`,
          value: `${fmt(classesMs, 0)} ms of CPU; ratio ${fmt(classesMs / bareClassesMs, 2)}`,
          goal: '≤ 2× bare',
          met: classesMs <= 2 * bareClassesMs,
        },
      ],
    );
    printFigures(
      `The library's other figures at that size (pages, export, evaluation; each beside its bare read)`,
      await storageAtScaleFigures(full, dir, MEDIA),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
