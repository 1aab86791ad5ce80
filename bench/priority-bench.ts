/**
 * Review priority on 100,000 files with 1,000,000 model boxes: the scan that scores every file
 * against the bare read of the same rows, the write of the scores, and a library page sorted by
 * "Review priority" (what the grid and Review next ask) against the same page sorted by path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LibraryView, type ViewQuery } from '../electron/core/library-view/library-view.js';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import { fmt, printFigures } from './report.js';
import { buildSyntheticLibrary } from './store-bench.js';

const MEDIA = 100_000;
const BOXES = 10;
const PAGES = 15;

function timed<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

function medianMs(fn: (i: number) => unknown, n: number): number {
  const times = Array.from({ length: n }, (_, i) => timed(() => fn(i)).ms).sort((a, b) => a - b);
  return times[Math.floor(n / 2)] as number;
}

export async function benchPriority(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-priority-'));
  try {
    const file = join(dir, 'library.sqlite');
    buildSyntheticLibrary(file, MEDIA, BOXES);
    const store = openLibraryStore(file);
    // One file in a hundred already reviewed, spread over the library.
    const reviewed = Array.from({ length: MEDIA / 100 }, (_, i) => i * 100 + 1);
    store.reviewed.markReviewed(reviewed, 'objects', 'person');
    const view = new LibraryView(file);
    const thresholds: [string, number][] = ['person', 'car', 'dog', 'cat', 'bicycle'].map(
      (label, i) => [label, 0.5 + i / 20],
    );

    const raw = openDatabase(file);
    const bare = timed(() => {
      let n = 0;
      for (const _ of raw
        .prepare(
          `SELECT d.id, d.result_id, d.frame_index, d.label, d.score, d.x, d.y, d.w, d.h, d.review
           FROM results r JOIN detections d ON d.result_id = r.id WHERE r.solution = 'objects'
           ORDER BY d.result_id, d.frame_index`,
        )
        .raw()
        .iterate())
        n++;
      return n;
    });
    const scan = timed(() => view.priorityScores('objects', thresholds));
    const write = timed(() =>
      store.priority.replace(
        'objects',
        store.priority.fingerprint('objects'),
        { thresholds, medians: scan.value.medians },
        scan.value.scores,
      ),
    );
    const fingerprintMs = medianMs(() => store.priority.fingerprint('objects'), 9);

    const query = (sort: ViewQuery['sort'], offset: number): ViewQuery => ({
      filter: { solution: 'objects' },
      sort,
      descending: false,
      offset,
      limit: 200,
    });
    const offsets = Array.from({ length: PAGES }, (_, i) => Math.floor((i / PAGES) * MEDIA));
    const pathMs = medianMs((i) => view.page(query('path', offsets[i] as number)), PAGES);
    const boxesMs = medianMs((i) => view.page(query('boxes', offsets[i] as number)), PAGES);
    const priorityMs = medianMs((i) => view.page(query('priority', offsets[i] as number)), PAGES);
    const next = {
      filter: { solution: 'objects', review: 'unreviewed' as const },
      sort: 'priority' as const,
      descending: false,
      offset: 0,
      limit: 2,
    };
    const nextMs = medianMs(() => view.ids(next), 9);
    raw.close();
    view.close();
    store.close();

    printFigures(`Review priority: ${MEDIA} files, ${MEDIA * BOXES} model boxes`, [
      { name: 'bare: read the same boxes in result order', value: `${fmt(bare.ms, 0)} ms` },
      {
        name: 'priority scan (score every file; the library view thread)',
        value: `${fmt(scan.ms, 0)} ms, ${scan.value.scores.length} files; scan / bare = ${fmt(scan.ms / bare.ms, 2)}`,
        goal: '≤ 5000 ms',
        met: scan.ms <= 5000 && scan.value.scores.length === MEDIA,
      },
      { name: 'write the scores (one transaction)', value: `${fmt(write.ms, 0)} ms` },
      {
        name: 'fingerprint (is the cache fresh?), median of 9',
        value: `${fmt(fingerprintMs, 1)} ms`,
      },
      { name: `library page of 200 by path, median of ${PAGES}`, value: `${fmt(pathMs, 1)} ms` },
      { name: `library page of 200 by boxes, median of ${PAGES}`, value: `${fmt(boxesMs, 1)} ms` },
      {
        name: `library page of 200 by review priority, median of ${PAGES}`,
        value: `${fmt(priorityMs, 1)} ms; priority / boxes = ${fmt(priorityMs / boxesMs, 2)}`,
        goal: '≤ 250 ms',
        met: priorityMs <= 250,
      },
      {
        name: 'Review next: the top file not reviewed, median of 9',
        value: `${fmt(nextMs, 1)} ms`,
        goal: '≤ 250 ms',
        met: nextMs <= 250,
      },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// `node build/bench/priority-bench.js` runs this section alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) await benchPriority();
