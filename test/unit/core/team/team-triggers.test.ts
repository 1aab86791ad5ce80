/**
 * The outbox's triggers exist only while the library is in a project (a trigger program per
 * inserted row otherwise, for nothing); joining installs them before earlier work is published,
 * leaving drops them, and a library already in a project when migration 23 runs gets them back.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/node-lib/sqlite.js';
import { libraryAtMigration, storeFixture, type StoreFixture } from '../store/store-fixture.js';
import { drawn } from './drawn-box.js';

let fx: StoreFixture;
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

const TEAM_TRIGGERS = [
  'team_correction_deleted',
  'team_correction_inserted',
  'team_correction_updated',
  'team_mark_reset',
  'team_mark_set',
  'team_mark_unset',
];

function installed(file: string): string[] {
  const db = openDatabase(file);
  try {
    return db
      .prepare<[], string>(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'team_*' ORDER BY name",
      )
      .pluck()
      .all();
  } finally {
    db.close();
  }
}

const join = () =>
  fx.store.team.setLink(
    { hub: 'postgresql://a@h/db', project: 'p', folder: '/f', member: 'a', role: 'lead' },
    1,
  );

it('installs the triggers on joining and drops them on leaving, with the outbox as before', () => {
  expect(installed(fx.file)).toEqual([]);
  fx.store.corrections.put(drawn('kite'));
  join();
  expect(installed(fx.file)).toEqual(TEAM_TRIGGERS);
  // Earlier work is published by the join itself, through the triggers it installed.
  expect(fx.store.team.outbox(10).map((c) => c.state?.label)).toEqual(['kite']);
  fx.store.corrections.put(drawn('bird'));
  expect(fx.store.team.outbox(10)).toHaveLength(2);
  fx.store.team.unlink();
  expect(installed(fx.file)).toEqual([]);
  fx.store.corrections.put(drawn('owl'));
  expect(fx.store.team.counts().pendingPush).toBe(2);
});

it('gives the triggers back to a library that was in a project when the migration ran', () => {
  const old = libraryAtMigration(fx, 22);
  old.exec(`INSERT INTO team_project (id, hub, project, folder, member, member_role, joined_at)
    VALUES (1, 'postgresql://a@h/db', 'p', '/f', 'a', 'lead', 1)`);
  old.close();
  fx.reopen();
  expect(installed(fx.file)).toEqual(TEAM_TRIGGERS);
  fx.store.corrections.put(drawn('kite'));
  expect(fx.store.team.outbox(10).map((c) => c.state?.label)).toEqual(['kite']);
});
