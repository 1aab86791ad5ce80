/**
 * The hub's server stops in the middle of a lead's `team settle` (issue 26 §3–§4): a real
 * PostgreSQL server, stopped while the settlement is being recorded (a server-side delay holds
 * that statement so the stop lands inside the call). Nothing is half-settled: the lead's desktop
 * says the settlement waits, its next sync records every file of it once the server is back, and
 * every desktop then shows the kept member's version, with no conflict left.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { PgServer } from '../../support/pg-server.js';
import {
  modelBox,
  projectWith,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let ann: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, ann, bob] = fx.members as [Member, Member, Member];
});

const PHOTOS = ['photo0.jpg', 'photo1.jpg'];

/** Relabels each photo's first model box and marks the photos reviewed, as `m`'s review. */
function reviewAs(m: Member, label: string): void {
  const boxes = PHOTOS.map((f) => modelBox(m, f, 0));
  review(m, (r, id) =>
    PHOTOS.forEach((f, i) => r.edit(id(f), 'objects', { kind: 'relabel', box: boxes[i]!, label })),
  );
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    const ids = PHOTOS.map((f) => store.media.byPath(join(m.folder, f))!.id);
    store.reviewed.markReviewed(ids, 'objects', 'person');
  } finally {
    store.close();
  }
}

const settledInHub = () =>
  server
    .sql(
      `SELECT coalesce(string_agg(kept_member, ',' ORDER BY content_hash), '')
       FROM labeldesk_demo.quality_settlements`,
    )
    .trim();

const untilSleeping = async () => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const n = server.sql(`SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'`);
    if (n.trim() === '1') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the settlement never reached the hub');
};

it('records a settlement cut off by the server stopping on the next sync, whole', async () => {
  await projectWith(lead, ann, bob);
  await teamJson(lead, ['settings', 'overlap', '100%']);
  reviewAs(ann, 'zebra');
  reviewAs(bob, 'giraffe');
  for (const m of [ann, bob, lead]) await teamJson(m, ['sync']);

  // Recording a settlement now takes 30 s in the server: the stop lands inside the call.
  server.sql(`CREATE FUNCTION public.slow_settlement() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN PERFORM pg_sleep(30); RETURN NEW; END $$`);
  server.sql(`CREATE TRIGGER slow BEFORE INSERT ON labeldesk_demo.quality_settlements
    FOR EACH ROW EXECUTE FUNCTION public.slow_settlement()`);
  const settling = team(lead, ['settle', '--all', '--keep', 'bob', '--json']);
  await untilSleeping();
  server.stop();
  const cut = await settling;
  expect(cut.code, cut.stderr).toBe(0);
  const outcome = JSON.parse(cut.stdout.trim().split('\n').at(-1)!) as {
    settled: { relPath: string; kept: string }[];
    waiting?: boolean;
  };
  expect(outcome.waiting).toBe(true);
  expect(outcome.settled.map((s) => `${s.relPath} ${s.kept}`).sort()).toEqual(
    PHOTOS.map((f) => `${f} bob`),
  );

  server.start();
  server.sql('DROP TRIGGER slow ON labeldesk_demo.quality_settlements');
  // Nothing recorded while the server was away; the lead's next sync records both files.
  expect(settledInHub()).toBe('');
  await teamJson(lead, ['sync']);
  expect(settledInHub()).toBe('bob,bob');
  for (const m of [ann, bob, lead, ann]) await teamJson(m, ['sync']);
  for (const f of PHOTOS) {
    const bobs = shown(bob, f);
    expect(bobs.some((b) => b.startsWith('giraffe '))).toBe(true);
    expect(shown(ann, f)).toEqual(bobs);
    expect(shown(lead, f)).toEqual(bobs);
  }
  for (const m of [lead, ann, bob]) {
    expect((await teamJson<{ conflicts: unknown[] }>(m, ['conflicts'])).conflicts).toEqual([]);
  }
  const report = await teamJson<{ settledFiles: number }>(lead, ['report']);
  expect(report.settledFiles).toBe(2);
}, 300_000);
