/**
 * A keyframe between analysed frames is a field of its correction (migration 19): its row holds
 * the real clip frame with `keyframe = 1`, it reads back as before, and the team wire is unchanged
 * (a change's state and a box key still carry `offSampleIndex(clip frame)`), so a teammate on
 * either version reads it. A library made before has its rows rewritten without sending anything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import type { CorrectionInput, LibraryStore } from '../../../../electron/core/store/store-types.js';
import { applyPulled } from '../../../../electron/core/team/apply-changes.js';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import { offSampleIndex } from '../../../../electron/core/team/keyframe-wire.js';
import { libraryAtMigration, storeFixture, type StoreFixture } from '../store/store-fixture.js';

const fixtures: StoreFixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.done();
});

async function desktop(member: string): Promise<StoreFixture> {
  const f = await storeFixture();
  fixtures.push(f);
  f.store.team.setLink(
    { hub: 'postgresql://x@h/db', project: 'p', folder: '/f', member, role: 'annotator' },
    1,
  );
  return f;
}

/** The stored columns of a library's corrections, by id. */
function stored(file: string) {
  const db = openDatabase(file);
  try {
    return db.prepare('SELECT label, frame_index, keyframe FROM corrections ORDER BY id').all() as {
      label: string;
      frame_index: number;
      keyframe: number;
    }[];
  } finally {
    db.close();
  }
}

const keyframe = (clipFrame: number, over: Partial<CorrectionInput> = {}): CorrectionInput => ({
  contentHash: 'hv',
  solution: 'objects',
  frameIndex: clipFrame,
  keyframe: true,
  timeMs: clipFrame * 40,
  anchor: null,
  label: 'dog',
  bbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 },
  review: 'accepted',
  deleted: false,
  track: 1,
  ...over,
});

/** A model box on sample 2, relabelled: its key holds its frame index. */
const edited: CorrectionInput = {
  ...keyframe(0),
  frameIndex: 2,
  keyframe: undefined,
  anchor: { label: 'cat', score: 0.8, bbox: { x: 0.5, y: 0.5, w: 0.1, h: 0.1 } },
  label: 'lynx',
  bbox: null,
};

const asPulled = (store: LibraryStore, member: string, from = 1) =>
  store.team.outbox(100).map((c, i) => ({ ...c, member, seq: from + i }));

describe('a keyframe stored as a field', () => {
  it('is stored with its clip frame and flag, and reads back as the keyframe it was', async () => {
    const a = await desktop('a');
    const saved = a.store.corrections.put(keyframe(44));
    a.store.corrections.put(edited);
    expect([saved.frameIndex, saved.keyframe]).toEqual([44, true]);
    expect(stored(a.file)).toEqual([
      { label: 'dog', frame_index: 44, keyframe: 1 },
      { label: 'lynx', frame_index: 2, keyframe: 0 },
    ]);
    // In the order reads always had: keyframes (negative) first.
    const rows = a.reopen().corrections.forContent('hv', 'objects');
    expect(rows.map((r) => [r.label, r.frameIndex, r.keyframe])).toEqual([
      ['dog', 44, true],
      ['lynx', 2, undefined],
    ]);
    // Moved along its frame: the bulk writer's update keeps the flag right too.
    a.store.corrections.bulkWriter().write([{ ...keyframe(45), id: saved.id }]);
    expect(stored(a.file)[0]).toEqual({ label: 'dog', frame_index: 45, keyframe: 1 });
  });

  it('goes to a teammate in the wire form it always had, and comes back', async () => {
    const a = await desktop('a');
    a.store.corrections.put(keyframe(44));
    a.store.corrections.put(edited);
    const sent = a.store.team.outbox(10);
    expect(sent.map((c) => c.state?.frameIndex)).toEqual([offSampleIndex(44), 2]);
    expect(sent[1]!.box).toMatch(/^model:objects:hv:2:cat:/);

    const b = await desktop('b');
    applyPulled(b.store, asPulled(a.store, 'a'), 2);
    expect(stored(b.file)).toEqual([
      { label: 'dog', frame_index: 44, keyframe: 1 },
      { label: 'lynx', frame_index: 2, keyframe: 0 },
    ]);
    expect(b.store.team.outbox(10)).toEqual([]);
    // b moves the keyframe's box; a applies it to the same row.
    const [row] = b.store.corrections.forContent('hv', 'objects');
    b.store.corrections.put({ ...keyframe(44, { label: 'wolf' }), id: row!.id });
    const back = b.store.team.outbox(10);
    expect(back).toMatchObject([
      { box: sent[0]!.box, parents: [sent[0]!.id], state: { frameIndex: offSampleIndex(44) } },
    ]);
    applyPulled(
      a.store,
      back.map((c, i) => ({ ...c, member: 'b', seq: 3 + i })),
      3,
    );
    expect(stored(a.file)).toEqual([
      { label: 'wolf', frame_index: 44, keyframe: 1 },
      { label: 'lynx', frame_index: 2, keyframe: 0 },
    ]);
    expect(a.store.team.counts().conflicts).toBe(0);
  });

  it('is not sent again when its member joins the same project again', async () => {
    const a = await desktop('a');
    a.store.corrections.put(keyframe(44));
    a.store.team.markPushed(a.store.team.outbox(10).map((c) => c.id));
    a.store.team.unlink();
    a.store.team.setLink(
      { hub: 'postgresql://x@h/db', project: 'p', folder: '/f', member: 'a', role: 'annotator' },
      2,
    );
    expect(a.store.team.outbox(10)).toEqual([]);
  });
});

describe('a library made before keyframes were a field', () => {
  it('has its keyframes rewritten, sends nothing for it, and reads them as before', async () => {
    const f = await storeFixture();
    fixtures.push(f);
    const old = libraryAtMigration(f, 17);
    old.exec(`INSERT INTO team_project (id, hub, project, folder, member, member_role, joined_at)
      VALUES (1, 'postgresql://x@h/db', 'p', '/f', 'a', 'annotator', 1);
      INSERT INTO corrections (content_hash, solution, frame_index, time_ms, label, x, y, w, h,
        review, updated_at) VALUES
        ('hv', 'objects', ${offSampleIndex(44)}, 1760, 'dog', 0.1, 0.2, 0.3, 0.4, 'accepted', 5),
        ('hv', 'objects', 3, 120, 'owl', 0.1, 0.2, 0.3, 0.4, 'accepted', 5);`);
    const before = old.prepare('SELECT count(*) FROM team_changes').pluck().get();
    old.close();

    f.store = openLibraryStore(f.file, { now: () => f.clock.t });
    expect(stored(f.file)).toEqual([
      { label: 'dog', frame_index: 44, keyframe: 1 },
      { label: 'owl', frame_index: 3, keyframe: 0 },
    ]);
    expect(f.store.team.outbox(10)).toHaveLength(before as number);
    const rows = f.store.corrections.forContent('hv', 'objects');
    expect(rows.map((r) => [r.frameIndex, r.keyframe])).toEqual([
      [44, true],
      [3, undefined],
    ]);
    // A later edit goes out in the wire form.
    f.store.corrections.put({ ...keyframe(44, { label: 'fox' }), id: rows[0]!.id });
    expect(f.store.team.outbox(10).at(-1)?.state).toMatchObject({
      label: 'fox',
      frameIndex: offSampleIndex(44),
    });
  });
});
