/** Corrections in a real SQLite library: saved at once, kept through re-analysis, exported merged. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeCorrections } from '../../../../electron/core/review/merge-corrections.js';
import { planEdit, type ReviewEdit } from '../../../../electron/core/review/review-edits.js';
import { LIBRARY_MIGRATIONS } from '../../../../electron/core/store/migrations.js';
import { migrate, openDatabase } from '../../../../electron/node-lib/sqlite.js';
import type { ExportQuery } from '../../../../electron/core/store/store-types.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
const content = { contentHash: 'ha', solution: 'objects' };
const A = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
const B = { x: 0.6, y: 0.1, w: 0.2, h: 0.2 };

beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  fx.store.media.upsertMany([
    mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/a-copy.jpg', { contentHash: 'ha' }),
    mediaRow(f.id, '/lib/v.mp4', { contentHash: 'hv', kind: 'video', fps: 10 }),
  ]);
  fx.store.results.save(
    result('ha', [box('person', 0.9, { bbox: A }), box('dog', 0.5, { bbox: B })]),
  );
});
afterEach(() => fx.done());

/** Applies one edit the way the application does: merge, plan, store. */
function edit(e: ReviewEdit, c = content) {
  const r = fx.store.results.find(c.contentHash, c.solution)!;
  const boxes = mergeCorrections(
    fx.store.results.detections(r.id),
    fx.store.corrections.forContent(c.contentHash, c.solution),
    { includeDeleted: true },
  );
  const plan = planEdit(boxes, e, c);
  return fx.store.corrections.put(plan.correction);
}

function shownBoxes() {
  const r = fx.store.results.find('ha', 'objects')!;
  return mergeCorrections(
    fx.store.results.detections(r.id),
    fx.store.corrections.forContent('ha', 'objects'),
  );
}

const exported = (q: ExportQuery = {}) =>
  [...fx.store.exportItems({ solution: 'objects', ...q })].map((i) => ({
    path: i.media.path,
    boxes: i.detections.map((d) => `${d.label}:${d.review}:${d.origin}`),
  }));

describe('corrections', () => {
  it('tells which contents have corrections of a solution', () => {
    const among = (solution: string) =>
      [...fx.store.corrections.contentsAmong(['ha', 'hv', 'unknown'], solution).corrected].sort();
    expect(among('objects')).toEqual([]);
    const [person] = shownBoxes();
    edit({ kind: 'relabel', box: { detectionId: person!.id, correctionId: null }, label: 'man' });
    expect(among('objects')).toEqual(['ha']);
    expect(among('faces')).toEqual([]);
    expect(fx.store.corrections.contentsAmong([], 'objects').corrected.size).toBe(0);
  });

  it('each edit is on disk when put returns (a reopened library shows it)', () => {
    const [person] = shownBoxes();
    edit({ kind: 'relabel', box: { detectionId: person!.id, correctionId: null }, label: 'man' });
    fx.reopen();
    expect(shownBoxes().map((b) => b.label)).toEqual(['man', 'dog']);
    expect(fx.store.corrections.forContent('ha', 'objects')[0]).toMatchObject({
      anchor: { label: 'person', score: 0.9, bbox: A },
      label: 'man',
      bbox: null,
      review: 'pending',
      deleted: false,
      updatedAt: fx.clock.t,
    });
  });

  it('re-analysis replaces the model boxes and keeps every correction; the counts follow', () => {
    const [person, dog] = shownBoxes();
    edit({ kind: 'accept', box: { detectionId: person!.id, correctionId: null } });
    edit({ kind: 'delete', box: { detectionId: dog!.id, correctionId: null } });
    edit({
      kind: 'add',
      frameIndex: 0,
      timeMs: null,
      label: 'cat',
      bbox: { x: 0, y: 0, w: 0.1, h: 0.1 },
    });
    expect(fx.store.results.find('ha', 'objects')?.boxCount).toBe(2);

    // The model answers again: the same person and dog, plus a new horse.
    fx.store.results.save(
      result('ha', [
        box('person', 0.88, { bbox: A }),
        box('dog', 0.55, { bbox: B }),
        box('horse', 0.7, { bbox: { x: 0.5, y: 0.6, w: 0.3, h: 0.3 } }),
      ]),
    );
    expect(shownBoxes().map((b) => `${b.label}:${b.review}:${b.origin}`)).toEqual([
      'person:accepted:model',
      'horse:pending:model',
      'cat:accepted:added',
    ]);
    const r = fx.store.results.find('ha', 'objects')!;
    expect(r.boxCount).toBe(3);
    // The mirror the library view reads: the deleted dog counts as rejected, the horse pending.
    expect(fx.store.results.detections(r.id).map((d) => `${d.label}:${d.review}`)).toEqual([
      'person:accepted',
      'dog:rejected',
      'horse:pending',
    ]);
  });

  it('exports the corrected set for every file with that content; --only-accepted is what a person accepted', () => {
    const [person, dog] = shownBoxes();
    edit({
      kind: 'move',
      box: { detectionId: person!.id, correctionId: null },
      bbox: { ...A, x: 0.2 },
    });
    edit({ kind: 'reject', box: { detectionId: dog!.id, correctionId: null } });
    edit({
      kind: 'add',
      frameIndex: 0,
      timeMs: null,
      label: 'cat',
      bbox: { x: 0, y: 0, w: 0.1, h: 0.1 },
    });
    expect(exported()).toEqual([
      { path: '/lib/a-copy.jpg', boxes: ['person:pending:edited', 'cat:accepted:added'] },
      { path: '/lib/a.jpg', boxes: ['person:pending:edited', 'cat:accepted:added'] },
    ]);
    expect(exported({ onlyAccepted: true })[0]?.boxes).toEqual(['cat:accepted:added']);
    expect(exported({ includeRejected: true })[0]?.boxes).toHaveLength(3);
    expect(exported({ classes: ['cat'] })[0]?.boxes).toEqual(['cat:accepted:added']);
    expect(exported({ minScore: 0.95 })[0]?.boxes).toEqual(['cat:accepted:added']);
    const [item] = fx.store.exportItems({ solution: 'objects' });
    expect(item?.detections[0]?.bbox).toEqual({ ...A, x: 0.2 });
  });

  it('clips export with track ids computed on the corrected set', () => {
    const at = (frameIndex: number, x: number) =>
      box('person', 0.8, {
        frameIndex,
        timeMs: frameIndex * 500,
        bbox: { x, y: 0.1, w: 0.2, h: 0.4 },
      });
    fx.store.results.save(
      result('hv', [at(0, 0.1), at(0, 0.6), at(1, 0.12), at(1, 0.62), at(2, 0.14), at(2, 0.64)]),
    );
    const [clip] = fx.store.exportItems({ solution: 'objects', kind: 'video' });
    const tracks = clip!.detections.map((d) => (d as { trackId?: number }).trackId);
    expect(tracks).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it('a correction cannot move to another content, and an unknown one is refused', () => {
    const c = edit({ kind: 'add', frameIndex: 0, timeMs: null, label: 'cat', bbox: A });
    expect(() => fx.store.corrections.put({ ...c, contentHash: 'hv' })).toThrow(/does not exist/);
    expect(() => fx.store.corrections.put({ ...c, id: 999 })).toThrow(/does not exist/);
    expect(fx.store.corrections.byId(c.id)?.contentHash).toBe('ha');
  });

  it('putMany is all or none', () => {
    const c = edit({ kind: 'add', frameIndex: 0, timeMs: null, label: 'cat', bbox: A });
    expect(() =>
      fx.store.corrections.putMany([
        { ...c, label: 'lion' },
        { ...c, id: 999 },
      ]),
    ).toThrow();
    expect(fx.store.corrections.byId(c.id)?.label).toBe('cat');
  });
});

describe('migration 2', () => {
  it('turns review states set before it into corrections', async () => {
    fx.store.close();
    const { tempDir } = await import('../../../support/temp-dir.js');
    const t = await tempDir('labeldesk-migrate-');
    const file = `${t.dir}/library.sqlite`;
    const db = openDatabase(file);
    migrate(db, LIBRARY_MIGRATIONS.slice(0, 1));
    db.exec(`INSERT INTO results (id, content_hash, solution, service_url, analysed_width,
      analysed_height, box_count, created_at) VALUES (1, 'hx', 'objects', 'u', 10, 10, 1, 5)`);
    db.exec(`INSERT INTO detections (result_id, frame_index, label, score, x, y, w, h, px, py, pw, ph,
      review) VALUES (1, 0, 'cat', 0.9, 0.1, 0.1, 0.2, 0.2, 1, 1, 2, 2, 'accepted'),
      (1, 0, 'dog', 0.4, 0.5, 0.5, 0.2, 0.2, 5, 5, 2, 2, 'pending')`);
    db.close();
    const { openLibraryStore } =
      await import('../../../../electron/core/review/open-library-store.js');
    const store = openLibraryStore(file);
    try {
      expect(store.corrections.forContent('hx', 'objects')).toMatchObject([
        { anchor: { label: 'cat', score: 0.9 }, review: 'accepted', label: null, bbox: null },
      ]);
    } finally {
      store.close();
      fx.store = openLibraryStore(fx.file);
      await t.remove();
    }
  });
});

describe('corrections.writeMany (bulk writers such as an import)', () => {
  it('inserts and updates in one transaction, and the library counts follow', () => {
    const anchorA = { label: 'person', score: 0.9, bbox: A };
    const base = { ...content, frameIndex: 0, timeMs: null };
    expect(
      fx.store.corrections.writeMany([
        { ...base, anchor: anchorA, label: null, bbox: null, review: 'accepted', deleted: false },
        {
          ...base,
          anchor: { label: 'dog', score: 0.5, bbox: B },
          label: null,
          bbox: null,
          review: 'pending',
          deleted: true,
        },
        { ...base, anchor: null, label: 'kite', bbox: A, review: 'accepted', deleted: false },
      ]),
    ).toBe(3);
    expect(exported()[0]?.boxes).toEqual(['person:accepted:model', 'kite:accepted:added']);
    expect(fx.store.results.find('ha', 'objects')?.boxCount).toBe(2);
    const [first] = fx.store.corrections.forContent('ha', 'objects');
    fx.store.corrections.writeMany([
      {
        ...base,
        id: first!.id,
        anchor: anchorA,
        label: 'man',
        bbox: null,
        review: 'accepted',
        deleted: false,
      },
    ]);
    expect(shownBoxes().map((b) => b.label)).toEqual(['man', 'kite']);
  });

  it('a content written for the first time is mirrored from the boxes given, as if read back', async () => {
    const other = await storeFixture();
    try {
      const base = { ...content, frameIndex: 0, timeMs: null };
      const writes = [
        {
          ...base,
          anchor: { label: 'dog', score: 0.5, bbox: B },
          label: 'cat',
          bbox: { ...B, x: 0.62 },
          review: 'accepted' as const,
          deleted: false,
        },
        {
          ...base,
          anchor: { label: 'person', score: 0.9, bbox: A },
          label: null,
          bbox: null,
          review: 'pending' as const,
          deleted: true,
        },
        {
          ...base,
          anchor: null,
          label: 'kite',
          bbox: A,
          review: 'accepted' as const,
          deleted: false,
        },
      ];
      const f = other.store.folders.add('/lib');
      other.store.media.upsertMany([mediaRow(f.id, '/lib/a.jpg', { contentHash: 'ha' })]);
      other.store.results.save(
        result('ha', [box('person', 0.9, { bbox: A }), box('dog', 0.5, { bbox: B })]),
      );
      const given = other.store.results.find('ha', 'objects')!;
      const model = other.store.results.detections(given.id);
      other.store.corrections.writeMany(writes, (hash, solution) =>
        hash === 'ha' && solution === 'objects' ? { resultId: given.id, model } : undefined,
      );
      fx.store.corrections.writeMany(writes);
      const mirrored = (s: StoreFixture['store']) => {
        const r = s.results.find('ha', 'objects')!;
        const boxes = s.results.detections(r.id).map((d) => `${d.label}:${d.review}:${d.origin}`);
        return { boxes, count: r.boxCount };
      };
      expect(mirrored(other.store)).toEqual({
        boxes: ['person:rejected:model', 'dog:accepted:edited'],
        count: 2,
      });
      expect(mirrored(other.store)).toEqual(mirrored(fx.store));
    } finally {
      await other.done();
    }
  });

  it('an unknown id refuses the whole batch', () => {
    const base = {
      ...content,
      frameIndex: 0,
      timeMs: null,
      anchor: null,
      bbox: A,
      review: 'accepted' as const,
      deleted: false,
    };
    expect(() =>
      fx.store.corrections.writeMany([
        { ...base, label: 'kite' },
        { ...base, id: 999, label: 'x' },
      ]),
    ).toThrow(/correction 999 does not exist/);
    expect(fx.store.corrections.forContent('ha', 'objects')).toEqual([]);
  });
});

describe('corrections.bulkWriter (an import, inside its own transaction)', () => {
  const base = { ...content, frameIndex: 0, timeMs: null, deleted: false };
  const mirrored = () => {
    const r = fx.store.results.find('ha', 'objects')!;
    const boxes = fx.store.results
      .detections(r.id)
      .map((d) => `${d.label}:${d.review}:${d.origin}`);
    return { boxes, count: r.boxCount };
  };
  const edits = (label: string) => [
    { ...base, anchor: { label: 'person', score: 0.9, bbox: A }, label, bbox: null },
    { ...base, anchor: { label: 'dog', score: 0.5, bbox: B }, label, bbox: null },
  ];

  it('mirrors a content whose every box takes one state, from the boxes given', () => {
    const r = fx.store.results.find('ha', 'objects')!;
    const model = fx.store.results.detections(r.id);
    fx.store.transaction(() => {
      const writer = fx.store.corrections.bulkWriter();
      writer.write(
        edits('cat').map((c) => ({ ...c, review: 'accepted' as const })),
        { resultId: r.id, model },
      );
      // Not yet: the view's mirror is written when the batch finishes.
      expect(mirrored().boxes).toEqual(['person:pending:model', 'dog:pending:model']);
      writer.finish();
    });
    expect(mirrored()).toEqual({
      boxes: ['person:accepted:edited', 'dog:accepted:edited'],
      count: 2,
    });
  });

  it('writes rows that share some values and not others exactly as given (70 rows, 3 statements)', () => {
    const given = Array.from({ length: 70 }, (_, i) => ({
      ...base,
      // Shared by every row of a statement, then not: each column alone varies somewhere.
      frameIndex: i < 32 ? 0 : i % 3,
      timeMs: i < 64 ? null : i * 40,
      anchor: i % 5 === 0 ? { label: 'dog', score: i % 2 ? null : 0.5, bbox: B } : null,
      label: i % 7 === 0 ? null : `class${i % 4}`,
      bbox: { x: i / 100, y: 0.2, w: 0.3, h: i < 40 ? 0.4 : 0.1 },
      review: i === 69 ? ('rejected' as const) : ('accepted' as const),
      crowd: i % 11 === 0,
      coco: i % 2 ? JSON.stringify({ id: i }) : null,
      personMade: i < 50,
      track: i >= 32 && i < 64 ? 1 + (i % 2) : null,
    }));
    fx.store.transaction(() => {
      const writer = fx.store.corrections.bulkWriter();
      writer.write(given.filter((c) => c.anchor !== null || c.label !== null));
      writer.finish();
    });
    const kept = given.filter((c) => c.anchor !== null || c.label !== null);
    const read = fx.store.corrections.forContent('ha', 'objects');
    const fields = (c: (typeof given)[number] | (typeof read)[number]) => ({
      frameIndex: c.frameIndex,
      timeMs: c.timeMs,
      anchor: c.anchor ?? null,
      label: c.label,
      bbox: c.bbox,
      review: c.review,
      crowd: c.crowd === true,
      coco: c.coco ?? null,
      personMade: c.personMade === true,
      track: c.track ?? null,
    });
    const key = (f: ReturnType<typeof fields>) => JSON.stringify(f);
    expect(read.map(fields).map(key).sort()).toEqual(kept.map(fields).map(key).sort());
  });

  it('numbers contents as files are hashed, and a content no file has when it is first written', () => {
    fx.store.transaction(() => {
      const writer = fx.store.corrections.bulkWriter();
      const drawn = { ...base, anchor: null, review: 'accepted' as const };
      writer.write([{ ...drawn, contentHash: 'hz', label: 'kite', bbox: A }]);
      writer.write([{ ...drawn, label: 'owl', bbox: B }]);
      writer.finish();
    });
    expect(fx.store.corrections.forContent('hz', 'objects').map((c) => c.label)).toEqual(['kite']);
    expect(fx.store.corrections.forContent('ha', 'objects').map((c) => c.label)).toEqual(['owl']);
    const db = openDatabase(fx.file);
    try {
      // The library's files in the order they were hashed, then the new content.
      expect(db.prepare('SELECT id, hash FROM contents ORDER BY id').raw().all()).toEqual([
        [1, 'ha'],
        [2, 'hv'],
        [3, 'hz'],
      ]);
      expect(
        db.prepare('SELECT content_hash, content_id FROM corrections ORDER BY id').raw().all(),
      ).toEqual([
        ['hz', 3],
        ['ha', 1],
      ]);
    } finally {
      db.close();
    }
  });

  it('a content written twice in one batch shows the second write', () => {
    const r = fx.store.results.find('ha', 'objects')!;
    const model = fx.store.results.detections(r.id);
    fx.store.transaction(() => {
      const writer = fx.store.corrections.bulkWriter();
      writer.write(
        edits('cat').map((c) => ({ ...c, review: 'accepted' as const })),
        { resultId: r.id, model },
      );
      const [person, dog] = fx.store.corrections.forContent('ha', 'objects');
      writer.write([
        {
          ...base,
          id: person!.id,
          anchor: person!.anchor,
          label: null,
          bbox: null,
          review: 'accepted',
        },
        { ...base, id: dog!.id, anchor: dog!.anchor, label: null, bbox: null, review: 'rejected' },
      ]);
      writer.finish();
    });
    expect(mirrored()).toEqual({
      boxes: ['person:accepted:model', 'dog:rejected:model'],
      count: 1,
    });
  });
});
