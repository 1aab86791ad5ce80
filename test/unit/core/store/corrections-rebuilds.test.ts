/**
 * Migrations 25 and 26 rebuild `corrections`: 25 with its review CHECK as a CASE, 26 with each
 * row's content number (`contents`, numbered in the library's order, then contents only
 * corrections know). Every row comes through as it was (ids, each column, nulls), the rules still
 * refuse what they refused, the indexes are back (reads by content use the content index, on the
 * number), a file hashed later is numbered, and a library in a project gets its outbox triggers
 * back without the copies sending anything to the team.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../../electron/node-lib/sqlite.js';
import { libraryAtMigration, storeFixture, type StoreFixture } from './store-fixture.js';
import { drawn } from '../team/drawn-box.js';

let fx: StoreFixture;
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

// Media ids run against the hashes' order: h2 is the library's first content, h1 its second;
// h0 is a correction's content no file has.
const ROWS = `
  INSERT INTO folders (id, path, added_at) VALUES (1, '/f', 1);
  INSERT INTO media (id, folder_id, path, kind, size, mtime_ms, content_hash) VALUES
    (4, 1, '/f/b.jpg', 'image', 1, 1, 'h2'), (6, 1, '/f/a.jpg', 'image', 1, 1, 'h1'),
    (8, 1, '/f/c.jpg', 'image', 1, 1, 'h2'), (9, 1, '/f/new.jpg', 'image', 1, 1, NULL);
  INSERT INTO rule_batches (id, solution, target, boxes, files, created_at)
    VALUES (7, 'objects', 0.95, 1, 1, 5);
  INSERT INTO corrections (id, content_hash, solution, frame_index, time_ms, anchor_label,
      anchor_score, anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted,
      updated_at, track, rule, rule_batch, rule_prior_at, crowd, coco, person_made, keyframe)
    VALUES
      (3, 'h1', 'objects', 0, NULL, 'dog', 0.9, 0.1, 0.2, 0.3, 0.4, NULL, NULL, NULL, NULL, NULL,
        'accepted', 0, 10, NULL, 'auto', 7, 4, 0, NULL, 0, 0),
      (5, 'h1', 'objects', 12, 480.5, NULL, NULL, NULL, NULL, NULL, NULL, 'cat', 0.5, 0.5, 0.1,
        0.1, 'pending', 0, 11, 2, NULL, NULL, NULL, 1, '{"id":9}', 1, 1),
      (9, 'h2', 'objects', 0, NULL, 'car', 0.4, 0.0, 0.0, 0.5, 0.5, 'bus', 0.0, 0.0, 0.5, 0.5,
        'rejected', 1, 12, NULL, NULL, NULL, NULL, 0, NULL, 0, 0),
      (11, 'h0', 'objects', 0, NULL, 'car', 0.4, 0.0, 0.0, 0.5, 0.5, NULL, NULL, NULL, NULL, NULL,
        'pending', 0, 13, NULL, NULL, NULL, NULL, 0, NULL, 0, 0);
`;

const everything = (db: Db) =>
  db.prepare<[], Record<string, unknown>>('SELECT * FROM corrections ORDER BY id').all();
const withoutNumber = (rows: Record<string, unknown>[]) =>
  rows.map(({ content_id: _number, ...row }) => row);
const numbers = (db: Db) =>
  db.prepare<[], [number, string]>('SELECT id, hash FROM contents ORDER BY id').raw().all();

function atMigration24(project: boolean): Record<string, unknown>[] {
  const old = libraryAtMigration(fx, 24);
  old.exec(ROWS);
  if (project)
    old.exec(`INSERT INTO team_project (id, hub, project, folder, member, member_role, joined_at)
      VALUES (1, 'postgresql://a@h/db', 'p', '/f', 'a', 'lead', 1)`);
  const rows = everything(old);
  old.close();
  fx.reopen();
  return rows;
}

it('keeps every row and the rule, with the indexes back', () => {
  const before = atMigration24(false);
  const db = openDatabase(fx.file);
  try {
    const after = everything(db);
    expect(withoutNumber(after)).toEqual(before);
    // The library's order first, then what only corrections know.
    expect(numbers(db)).toEqual([
      [1, 'h2'],
      [2, 'h1'],
      [3, 'h0'],
    ]);
    expect(after.map((r) => [r['content_hash'], r['content_id']])).toEqual([
      ['h1', 2],
      ['h1', 2],
      ['h2', 1],
      ['h0', 3],
    ]);
    const sql = db
      .prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'corrections'")
      .pluck()
      .get();
    expect(sql).toContain("CHECK (CASE review WHEN 'pending'");
    expect(sql).not.toContain("review IN ('pending'");
    const insert = (review: string) =>
      db
        .prepare(
          `INSERT INTO corrections (content_hash, solution, frame_index, label, x, y, w, h, review,
            updated_at, content_id) VALUES ('h0', 'objects', 0, 'owl', 0, 0, 0.1, 0.1, ?, 1, 3)`,
        )
        .run(review);
    for (const review of ['pending', 'accepted', 'rejected'])
      expect(() => insert(review)).not.toThrow();
    expect(() => insert('maybe')).toThrow(/CHECK constraint failed/);
    expect(() => insert('Accepted')).toThrow(/CHECK constraint failed/);
    // The other rules came through too.
    expect(() =>
      db.exec(`INSERT INTO corrections (content_hash, solution, frame_index, label, x, review,
        updated_at, content_id) VALUES ('h0', 'objects', 0, 'owl', 0.1, 'pending', 1, 3)`),
    ).toThrow(/CHECK constraint failed/);
    // A row has a content number, of a content that exists.
    const numbered = (number: string) =>
      db.exec(`INSERT INTO corrections (content_hash, solution, frame_index, label, x, y, w, h,
        updated_at, content_id) VALUES ('h0', 'objects', 0, 'owl', 0, 0, 0.1, 0.1, 1, ${number})`);
    expect(() => numbered('NULL')).toThrow(/NOT NULL constraint failed/);
    expect(() => numbered('99')).toThrow(/FOREIGN KEY constraint failed/);
    const indexes = db
      .prepare<[], string>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'corrections' ORDER BY name",
      )
      .pluck()
      .all();
    expect(indexes).toEqual(['corrections_by_content', 'corrections_by_rule_batch']);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM corrections
          WHERE content_id = (SELECT id FROM contents WHERE hash = 'h1') AND solution = 'objects'
          ORDER BY CASE WHEN keyframe = 1 THEN -frame_index - 1 ELSE frame_index END`,
      )
      .all() as { detail: string }[];
    const details = plan.map((p) => p.detail).join(' ');
    expect(details).toContain('corrections USING INDEX corrections_by_content (content_id=?');
    expect(details).not.toContain('TEMP B-TREE');
    // A file hashed after the migration is numbered then, in the order files are hashed.
    db.exec(`UPDATE media SET content_hash = 'h5' WHERE id = 9;
      INSERT INTO media (id, folder_id, path, kind, size, mtime_ms, content_hash)
        VALUES (10, 1, '/f/d.jpg', 'image', 1, 1, 'h4'), (12, 1, '/f/e.jpg', 'image', 1, 1, 'h1');
      UPDATE media SET content_hash = 'h2' WHERE id = 6;`);
    expect(numbers(db).slice(3)).toEqual([
      [4, 'h5'],
      [5, 'h4'],
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
  // The store reads the rows as before.
  expect(fx.store.corrections.forContent('h1', 'objects').map((c) => c.id)).toEqual([5, 3]);
  // A correction of a content nobody numbered yet gets the next number.
  const kite = fx.store.corrections.put({ ...drawn('kite'), contentHash: 'h7' });
  expect(fx.store.corrections.forContent('h7', 'objects')).toEqual([kite]);
});

it('sends nothing for the copies and gives a project its outbox triggers back', () => {
  atMigration24(true);
  expect(fx.store.team.counts().pendingPush).toBe(0);
  const db = openDatabase(fx.file);
  const triggers = db
    .prepare<[], string>(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'corrections' ORDER BY name",
    )
    .pluck()
    .all();
  db.close();
  expect(triggers).toEqual([
    'team_correction_deleted',
    'team_correction_inserted',
    'team_correction_updated',
  ]);
  fx.store.corrections.put({ ...drawn('kite'), contentHash: 'h4' });
  expect(fx.store.team.outbox(10).map((c) => c.state?.label)).toEqual(['kite']);
});
