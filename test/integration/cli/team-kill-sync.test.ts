/**
 * `kill -9` at any point of a sync neither loses nor duplicates a change: a pushing and a pulling
 * `labeldesk team sync` are killed again and again part-way (wherever the kill lands), then a
 * sync runs to its end; the hub holds each change once and the other desktop has every one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { startCli } from '../../support/cli-run.js';
import type { PgServer } from '../../support/pg-server.js';
import { projectWith, teamJson, useTeamFixture, type Member } from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, bob] = fx.members as [Member, Member];
});

const EDITS = 3000;

function withStore<T>(m: Member, fn: (s: ReturnType<typeof openLibraryStore>) => T): T {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** Every correction of the library, as a sorted list of label and box. */
const corrections = (m: Member) =>
  withStore(m, (s) => {
    const hash = s.media.byPath(join(m.folder, 'photo0.jpg'))!.contentHash!;
    return s.corrections
      .forContent(hash, 'objects')
      .map((c) => `${c.label} ${c.bbox?.x.toFixed(4)}`)
      .sort();
  });

/** Starts `team sync` and kills it with SIGKILL after `ms`; true when it was killed before its end. */
async function killedSync(m: Member, ms: number): Promise<boolean> {
  const run = startCli(['team', 'sync'], m.env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), ms);
  const { signal } = await run.exited;
  clearTimeout(timer);
  return signal === 'SIGKILL';
}

/** Kills syncs after growing delays; says how many were killed part-way. */
async function killedSyncs(m: Member): Promise<number> {
  let killed = 0;
  for (const ms of [250, 500, 800, 1200, 1700]) if (await killedSync(m, ms)) killed++;
  return killed;
}

describe('kill -9 during a sync', () => {
  it('loses and duplicates nothing, pushing or pulling', { timeout: 180_000 }, async () => {
    await projectWith(lead, bob);
    withStore(lead, (s) => {
      const hash = s.media.byPath(join(lead.folder, 'photo0.jpg'))!.contentHash!;
      s.corrections.putMany(
        Array.from({ length: EDITS }, (_, i) => ({
          contentHash: hash,
          solution: 'objects',
          frameIndex: 0,
          timeMs: null,
          anchor: null,
          label: `box${i}`,
          bbox: { x: i / EDITS, y: 0.1, w: 0.01, h: 0.01 },
          review: 'accepted' as const,
          deleted: false,
        })),
      );
    });
    expect(await killedSyncs(lead)).toBeGreaterThan(0);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pendingPush: 0 });
    const inHub = server.sql(
      "SELECT count(*) || ' ' || count(DISTINCT id) FROM labeldesk_demo.changes",
    );
    expect(inHub).toBe(`${EDITS} ${EDITS}`);
    expect(withStore(lead, (s) => s.team.counts().pendingPush)).toBe(0);

    expect(await killedSyncs(bob)).toBeGreaterThan(0);
    expect(await teamJson(bob, ['sync'])).toMatchObject({ pendingPull: 0, pendingPush: 0 });
    const bobs = corrections(bob);
    expect(bobs.length).toBe(EDITS);
    expect(bobs).toEqual(corrections(lead));
    // Bob applied every change once and sent none back.
    expect(server.sql('SELECT count(*) FROM labeldesk_demo.changes')).toBe(String(EDITS));
  });
});
