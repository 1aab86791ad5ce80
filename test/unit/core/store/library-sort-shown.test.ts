/**
 * Sorting the Library by boxes counted from the library's minimum score (issue 27): the count
 * reads the detections_shown index in two ranges instead of every box of every file, and still
 * gives, file by file, what counting the rows one by one gives (boxes without a score pass every
 * score, rejected ones never count).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  boxCountSql,
  type ViewFilter,
} from '../../../../electron/core/library-view/library-view-sql.js';
import { LibraryView } from '../../../../electron/core/library-view/library-view.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import {
  box,
  correction,
  mediaRow,
  result,
  storeFixture,
  type StoreFixture,
} from './store-fixture.js';
import { lcgRandom } from '../../../support/seeded-random.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

const LABELS = ['apple', 'orange', 'lemon'];

/** 120 files, 0–14 boxes each at scores on and off the thresholds, some without a score, some rejected. */
function fill(): string[] {
  const next = lcgRandom(27);
  const f = fx.store.folders.add('/lib');
  const names = Array.from({ length: 120 }, (_, i) => `/lib/${String(i).padStart(3, '0')}.jpg`);
  fx.store.media.upsertMany(names.map((p, i) => mediaRow(f.id, p, { contentHash: `h${i}` })));
  const saved = names.map(() =>
    Array.from({ length: Math.floor(next() * 15) }, (_, j) => {
      const r = next();
      const score = r < 0.1 ? null : r < 0.2 ? 0.3 : Math.round(next() * 100) / 100;
      const bbox = { x: j / 20, y: 0.1, w: 0.04, h: 0.3 };
      return box(LABELS[Math.floor(next() * 3)] as string, score as number, { bbox });
    }),
  );
  // One file in ten has no result at all.
  fx.store.results.saveMany(
    saved.flatMap((boxes, i) => (i % 10 === 9 ? [] : [result(`h${i}`, boxes)])),
  );
  saved.forEach((boxes, i) => {
    const rejected = boxes.find((b) => b.score === null || b.score >= 0.5);
    if (i % 10 !== 9 && i % 3 === 0 && rejected)
      fx.store.corrections.put(correction(`h${i}`, rejected, { review: 'rejected' }));
  });
  return names;
}

/** Each file's count the slow way: every row of the file read and tested. */
function expectedOrder(names: string[], from: number, label?: string): [string, number | null][] {
  const db = openDatabase(fx.file);
  try {
    const rows = db
      .prepare(
        `SELECT m.path, (SELECT count(*) FROM detections d WHERE d.result_id = r.id
           AND d.review != 'rejected' AND (d.score IS NULL OR d.score >= ?)
           AND (? IS NULL OR d.label = ?)) AS n, r.id AS rid
         FROM media m LEFT JOIN results r ON r.content_hash = m.content_hash`,
      )
      .all(from, label ?? null, label ?? null) as { path: string; n: number; rid: number | null }[];
    expect(rows).toHaveLength(names.length);
    return rows
      .map((r): [string, number | null] => [r.path, r.rid === null ? null : r.n])
      .sort((a, b) => (b[1] ?? -1) - (a[1] ?? -1) || (a[0] < b[0] ? 1 : -1));
  } finally {
    db.close();
  }
}

function sortedByBoxes(filter: ViewFilter): [string, number | null][] {
  const view = new LibraryView(fx.file);
  try {
    return view
      .page({ filter, sort: 'boxes', descending: true, offset: 0, limit: 1000 })
      .map((i) => [i.path, i.boxes]);
  } finally {
    view.close();
  }
}

describe('sort by boxes from a minimum score', () => {
  it('gives each file the count of its boxes read one by one', () => {
    const names = fill();
    for (const from of [0.05, 0.3, 0.5, 0.95]) {
      const order = expectedOrder(names, from);
      expect(new Set(order.map((o) => o[1])).size).toBeGreaterThan(4);
      expect(sortedByBoxes({ solution: 'objects', shownFrom: from })).toEqual(order);
    }
    // The filter's own minimum score and a label: files without such a box are left out.
    const apples = expectedOrder(names, 0.4, 'apple').filter((o) => (o[1] ?? 0) > 0);
    expect(sortedByBoxes({ solution: 'objects', minScore: 0.4, label: 'apple' })).toEqual(apples);
  });

  it('counts on the index of live boxes by score, not on every row', () => {
    fill();
    const db = openDatabase(fx.file);
    try {
      const filter: ViewFilter = { solution: 'objects', shownFrom: 0.3 };
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN SELECT ${boxCountSql(filter)} FROM results r`)
        .all({ shownFrom: 0.3 }) as { detail: string }[];
      const searches = plan.map((p) => p.detail).filter((d) => d.startsWith('SEARCH d'));
      expect(searches).toEqual([
        expect.stringMatching(/detections_shown \(result_id=\? AND score>\?\)/),
        expect.stringMatching(/detections_shown \(result_id=\? AND score=\?\)/),
      ]);
    } finally {
      db.close();
    }
  });
});
