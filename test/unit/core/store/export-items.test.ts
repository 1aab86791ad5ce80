import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSql, queryParams } from '../../../../electron/core/store/export-items.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import type { ExportQuery } from '../../../../electron/core/store/store-types.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await storeFixture();
  const { store } = fx;
  const f = store.folders.add('/lib');
  store.media.upsertMany([
    mediaRow(f.id, '/lib/c.jpg', { contentHash: 'hc' }),
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/a-copy.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/v.mp4', { contentHash: 'hv', kind: 'video' }),
    mediaRow(f.id, '/lib/unlabelled.jpg', { contentHash: 'hu' }),
    mediaRow(f.id, '/lib/gone.jpg', { contentHash: 'ha' }),
  ]);
  store.media.markMissing([store.media.byPath('/lib/gone.jpg')!.id]);
  store.results.save(
    result('ha', [
      box('person', 0.95, { review: 'accepted' }),
      box('dog', 0.4),
      box('person', 0.6, { review: 'rejected' }),
    ]),
  );
  store.results.save(result('hc', [box('cat', 0.3)]));
  store.results.save(
    result('hv', [
      box('person', 0.8, { frameIndex: 5, timeMs: 1000 }),
      box('person', 0.7, { frameIndex: 0, timeMs: 0, review: 'accepted' }),
    ]),
  );
  store.results.save(result('ha', [box('face', 0.9)], { solution: 'faces' }));
});
afterEach(() => fx.done());

const run = (q: ExportQuery) =>
  [...fx.store.exportItems(q)].map((i) => ({
    path: i.media.path,
    solution: i.result.solution,
    boxes: i.detections.map((d) => `${d.label}@${d.score}`),
  }));

describe('exportItems', () => {
  it('streams labelled, present media in path order, one item per result, rejected boxes left out', () => {
    expect(run({ solution: 'objects' })).toEqual([
      { path: '/lib/a-copy.jpg', solution: 'objects', boxes: ['person@0.95', 'dog@0.4'] },
      { path: '/lib/a.jpg', solution: 'objects', boxes: ['person@0.95', 'dog@0.4'] },
      { path: '/lib/c.jpg', solution: 'objects', boxes: ['cat@0.3'] },
      { path: '/lib/v.mp4', solution: 'objects', boxes: ['person@0.7', 'person@0.8'] },
    ]);
    expect(run({}).map((i) => `${i.path}:${i.solution}`)).toEqual([
      '/lib/a-copy.jpg:faces',
      '/lib/a-copy.jpg:objects',
      '/lib/a.jpg:faces',
      '/lib/a.jpg:objects',
      '/lib/c.jpg:objects',
      '/lib/v.mp4:objects',
    ]);
    expect(run({ solution: 'objects', includeRejected: true })[0]?.boxes).toHaveLength(3);
  });

  it('filters by review, score, class and kind; empty items kept as negatives unless skipped', () => {
    expect(run({ solution: 'objects', onlyAccepted: true })).toEqual([
      { path: '/lib/a-copy.jpg', solution: 'objects', boxes: ['person@0.95'] },
      { path: '/lib/a.jpg', solution: 'objects', boxes: ['person@0.95'] },
      { path: '/lib/c.jpg', solution: 'objects', boxes: [] },
      { path: '/lib/v.mp4', solution: 'objects', boxes: ['person@0.7'] },
    ]);
    expect(run({ solution: 'objects', minScore: 0.5, skipEmpty: true })).toEqual([
      { path: '/lib/a-copy.jpg', solution: 'objects', boxes: ['person@0.95'] },
      { path: '/lib/a.jpg', solution: 'objects', boxes: ['person@0.95'] },
      { path: '/lib/v.mp4', solution: 'objects', boxes: ['person@0.7', 'person@0.8'] },
    ]);
    expect(run({ classes: ['dog', 'cat'], skipEmpty: true }).map((i) => i.boxes)).toEqual([
      ['dog@0.4'],
      ['dog@0.4'],
      ['cat@0.3'],
    ]);
    expect(run({ kind: 'video' }).map((i) => i.path)).toEqual(['/lib/v.mp4']);
  });

  it('carries the full media, result and detection records', () => {
    const [first] = fx.store.exportItems({ solution: 'objects', kind: 'video' });
    expect(first?.media).toEqual(fx.store.media.byPath('/lib/v.mp4'));
    expect(first?.result).toEqual(fx.store.results.find('hv', 'objects'));
    // Clips come merged with the corrections and tracked: the stored records plus those fields.
    expect(first?.detections).toMatchObject(
      fx.store.results.detections(first!.result.id).sort((a, b) => a.frameIndex - b.frameIndex),
    );
    // Frames 0 and 5 are too far apart for one track: the accepted box is a track of its own, the
    // other, a lone model box, is in none.
    expect(first?.detections.map((d) => (d as { trackId?: number }).trackId)).toEqual([
      1,
      undefined,
    ]);
  });

  it('lets the app keep writing while an export is half-way through', () => {
    const it = fx.store.exportItems({ solution: 'objects' });
    expect(it.next().value?.media.path).toBe('/lib/a-copy.jpg');
    // A run saving results in the same process must not hit "connection is busy".
    fx.store.results.save(result('hu', [box('person', 0.99)]));
    fx.store.settings.set('last.export', 'now');
    const rest = [...it].map((i) => i.media.path);
    // The export reads the library as it was when it started.
    expect(rest).toEqual(['/lib/a.jpg', '/lib/c.jpg', '/lib/v.mp4']);
  });

  it('an export left half-way releases its reader, so the WAL can be checkpointed', () => {
    const checkpoint = () => {
      const db = openDatabase(fx.file);
      db.pragma('busy_timeout = 0');
      const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      db.close();
      return r?.busy;
    };
    const open = fx.store.exportItems({});
    open.next();
    expect(checkpoint()).toBe(1);
    open.return!(undefined);
    expect(checkpoint()).toBe(0);

    for (const item of fx.store.exportItems({})) {
      expect(item).toBeDefined();
      break;
    }
    expect(checkpoint()).toBe(0);
  });

  it('a score filter reads only the shown boxes, in frame order, boxes without a score kept', () => {
    const f = fx.store.folders.add('/more');
    fx.store.media.upsertMany([mediaRow(f.id, '/more/s.jpg', { contentHash: 'hs' })]);
    fx.store.results.save(
      result('hs', [
        box('low', 0.1),
        box('dog', 0.4),
        box('cat', 0.9),
        box('drawn', 0, { score: null }),
        box('bird', 0.35, { review: 'rejected' }),
        box('fox', 0.5, { review: 'accepted' }),
      ]),
    );
    const boxesOf = (q: ExportQuery) =>
      run({ solution: 'objects', ...q }).find((i) => i.path === '/more/s.jpg')?.boxes;
    // Stored order, not the index's score order; the unscored box passes the filter.
    expect(boxesOf({ minScore: 0.3 })).toEqual(['dog@0.4', 'cat@0.9', 'drawn@null', 'fox@0.5']);
    expect(boxesOf({ minScore: 0.3, onlyAccepted: true })).toEqual(['fox@0.5']);
    expect(boxesOf({ minScore: 0.3, classes: ['cat', 'drawn'] })).toEqual([
      'cat@0.9',
      'drawn@null',
    ]);
    expect(boxesOf({ minScore: 0.3, includeRejected: true })).toEqual([
      'dog@0.4',
      'cat@0.9',
      'drawn@null',
      'bird@0.35',
      'fox@0.5',
    ]);
  });

  it('with a score filter, reads two ranges of the shown-boxes index, not every box', () => {
    const db = openDatabase(fx.file);
    db.exec('ANALYZE');
    const q = { solution: 'objects', classes: ['a'], minScore: 0.5, onlyAccepted: true };
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${exportSql.shownDetections}`)
      .all({ ...queryParams(q), resultId: 1 }) as { detail: string }[];
    const text = plan.map((p) => p.detail).join('\n');
    expect(text).toMatch(/detections_shown \(result_id=\? AND score>\?\)/);
    expect(text).toMatch(/detections_shown \(result_id=\? AND score=\?\)/);
    expect(text).not.toMatch(/TEMP B-TREE|SCAN d\b|detections_by_result/);
    db.close();
  });

  it('walks indexes in path order: never sorts the whole library in memory', () => {
    const db = openDatabase(fx.file);
    db.exec('ANALYZE');
    const queries = [
      {},
      { solution: 'objects', classes: ['a'], minScore: 0.5, kind: 'image' as const },
    ];
    for (const q of queries) {
      for (const sql of [exportSql.items, exportSql.detections, exportSql.allDetections]) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ ...queryParams(q), resultId: 1 }) as { detail: string }[];
        // No sort of the whole result, and never a full scan of the detections table.
        expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE|SCAN d\b/);
      }
    }
    db.close();
  });
});
