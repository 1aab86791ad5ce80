/**
 * A hub that survives its server: a real primary and a `pg_basebackup` standby, members as
 * separate `labeldesk` processes with their own homes, the hub address naming both hosts with
 * target_session_attrs=read-write. The primary is killed (`pg_ctl stop -m immediate`) while they
 * edit and the standby promoted: every change saved before and during the failover reaches the
 * other member after it, none is lost or doubled, and the watching desktop is online again by
 * itself. With asynchronous replication, a change the dead primary acknowledged but never sent
 * to its standby is pushed again by its desktop, and the other desktop pulls again what the new
 * primary's order changed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { projectSchema } from '../../../electron/core/team/hub-schema.js';
import { startCli, type CliProcess } from '../../support/cli-run.js';
import { startPgServer, type PgServer } from '../../support/pg-server.js';
import { startStandby, type PgStandby } from '../../support/pg-standby.js';
import {
  modelBox,
  review,
  shown,
  team,
  teamJson,
  teamMember,
  type Member,
} from '../../support/team-members.js';

interface Pair {
  primary: PgServer;
  standby: PgStandby;
  lead: Member;
  bob: Member;
}

/** A primary with lead and bob, a standby, and both members in project `demo` through both hosts. */
function usePair(synchronous: boolean): () => Pair {
  let pair: Pair | undefined;
  beforeAll(async () => {
    const primary = await startPgServer();
    const lead = await teamMember(primary, 'lead', { createSchema: true });
    const bob = await teamMember(primary, 'bob');
    const standby = await startStandby(primary, { synchronous });
    pair = { primary, standby, lead, bob };
    await link(pair, lead, 'create');
    expect((await team(lead, ['member', 'add', 'bob'])).code).toBe(0);
    await link(pair, bob, 'join');
  }, 240_000);
  afterAll(async () => {
    await pair?.lead.remove();
    await pair?.bob.remove();
    await pair?.standby.remove();
    await pair?.primary.remove();
  });
  return () => pair as Pair;
}

/** libpq's multi-host form: the primary first, its standby second. */
const hubOf = (p: Pair, m: Member) =>
  `postgresql://${m.name}:${encodeURIComponent(m.password)}@127.0.0.1:${p.primary.port},127.0.0.1:${p.standby.port}/${p.primary.database}?target_session_attrs=read-write`;

const link = (p: Pair, m: Member, verb: 'create' | 'join') =>
  teamJson(m, [verb, '--hub', hubOf(p, m), '--project', 'demo', '--folder', m.folder]);

const relabel = (m: Member, file: string, n: number, label: string) =>
  review(m, (r, id) =>
    r.edit(id(file), 'objects', { kind: 'relabel', box: modelBox(m, file, n), label }),
  );

/** The hub's change log as the server running it holds it: how many, how many distinct ids. */
const changesIn = (sql: (s: string) => string) =>
  sql(`SELECT count(*) || ' ' || count(DISTINCT id) FROM ${projectSchema('demo')}.changes`);

/** Waits for the watcher's n-th line matching `pattern` (its output so far counts). */
async function nth(w: CliProcess, pattern: RegExp, n: number): Promise<void> {
  const count = () =>
    w
      .stdout()
      .split('\n')
      .filter((l) => pattern.test(l)).length;
  for (let i = 0; count() < n; i++) {
    if (i > 2400) throw new Error(`no ${n}th ${String(pattern)}:\n${w.stdout()}\n${w.stderr()}`);
    await sleep(50);
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a failover with synchronous replication while members edit', () => {
  const pair = usePair(true);

  it('loses nothing saved before or during it, and the watching desktop goes on by itself', async () => {
    const { primary, standby, lead, bob } = pair();
    const watcher = startCli(['team', 'sync', '--watch', '--json'], lead.env);
    try {
      await watcher.waitForOutput(/"event":"synced"/);
      // Before: bob's edit reaches lead's watcher; lead's edit goes out as it is saved.
      relabel(bob, 'photo0.jpg', 0, 'zebra');
      expect(await teamJson(bob, ['sync'])).toMatchObject({ pushed: 1 });
      await nth(watcher, /"event":"sync".*"pulled":1/, 1);
      relabel(lead, 'photo1.jpg', 0, 'heron');
      await nth(watcher, /"event":"sync","pushed":1/, 1);

      primary.kill();
      // During: both edit; the hub is away for both, the edits wait locally.
      relabel(lead, 'photo1.jpg', 1, 'otter');
      relabel(bob, 'photo0.jpg', 1, 'lynx');
      const away = await team(bob, ['sync']);
      expect(away.code).toBe(1);
      expect(away.stderr).toMatch(/hub_unreachable/);
      await watcher.waitForOutput(/"event":"offline"/);

      standby.promote();
      // After: lead's waiting edit goes out by itself; bob's with his next sync.
      await nth(watcher, /"event":"sync","pushed":1/, 2);
      expect(await teamJson(bob, ['sync'])).toMatchObject({ pushed: 1 });
      await nth(watcher, /"event":"sync".*"pulled":[1-9]/, 2);
      await teamJson(bob, ['sync']);
      // The watcher listens on the new primary again (its NOTIFY connection was made anew).
      expect(
        standby.sql(
          `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'labeldesk' AND query ILIKE 'listen%'`,
        ),
      ).toBe('1');
    } finally {
      watcher.child.kill('SIGINT');
    }
    expect(await watcher.exited).toEqual({ code: 0, signal: null });
    expect(watcher.stdout()).toMatch(/"event":"online"/);
    expect(changesIn(standby.sql)).toBe('4 4');
    for (const file of ['photo0.jpg', 'photo1.jpg']) {
      expect(shown(lead, file)).toEqual(shown(bob, file));
    }
    const labels = shown(lead, 'photo0.jpg').join(' ') + shown(lead, 'photo1.jpg').join(' ');
    for (const l of ['zebra', 'heron', 'otter', 'lynx']) expect(labels).toContain(`${l} `);
    expect(await teamJson(lead, ['status'])).toMatchObject({ online: true, pendingPush: 0 });
    expect(await teamJson(bob, ['status'])).toMatchObject({
      online: true,
      pendingPush: 0,
      pendingPull: 0,
    });
  }, 240_000);
});

describe('a failover with asynchronous replication that loses what the primary acknowledged', () => {
  const pair = usePair(false);

  it('pushes the lost change again and pulls again what the new order changed', async () => {
    const { primary, standby, lead, bob } = pair();
    await standby.caughtUp();
    // The standby stops hearing from the primary: what comes next reaches the primary only.
    standby.stop();
    relabel(lead, 'photo0.jpg', 0, 'walrus');
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 1 });
    expect(await teamJson(bob, ['sync'])).toMatchObject({ pulled: 1 });
    primary.kill();
    standby.start();
    standby.promote();
    expect(changesIn(standby.sql)).toBe('0 0');

    // Bob's next change is the new primary's first; lead's desktop finds its change missing.
    relabel(bob, 'photo1.jpg', 0, 'puffin');
    expect(await teamJson(bob, ['sync'])).toMatchObject({ pushed: 1 });
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 1, pulled: 2 });
    await teamJson(bob, ['sync']);
    expect(changesIn(standby.sql)).toBe('2 2');
    for (const file of ['photo0.jpg', 'photo1.jpg']) {
      expect(shown(lead, file)).toEqual(shown(bob, file));
    }
    expect(shown(bob, 'photo0.jpg').join(' ')).toContain('walrus ');
    expect(shown(lead, 'photo1.jpg').join(' ')).toContain('puffin ');
    for (const m of [lead, bob]) {
      expect(await teamJson(m, ['status'])).toMatchObject({
        online: true,
        pendingPush: 0,
        pendingPull: 0,
      });
    }
  }, 240_000);
});

describe('a failover with asynchronous replication that loses an acknowledged review mark', () => {
  const pair = usePair(false);

  /** Runs `fn` on the member's library with photo0.jpg's media id. */
  function onPhoto0<T>(m: Member, fn: (store: LibraryStore, id: number) => T): T {
    const store = openLibraryStore(join(m.home, 'library.sqlite'));
    try {
      return fn(store, store.media.byPath(join(m.folder, 'photo0.jpg'))!.id);
    } finally {
      store.close();
    }
  }

  it('pushes the lost mark again, and the other member gets it', async () => {
    const { primary, standby, lead, bob } = pair();
    await standby.caughtUp();
    standby.stop();
    onPhoto0(lead, (s, id) => s.reviewed.markReviewed([id], 'objects', 'person'));
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPushed: 1 });
    primary.kill();
    standby.start();
    standby.promote();
    expect(standby.sql(`SELECT count(*) FROM ${projectSchema('demo')}.marks`)).toBe('0');

    await teamJson(bob, ['sync']);
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPushed: 1 });
    await teamJson(bob, ['sync']);
    expect(standby.sql(`SELECT count(*) FROM ${projectSchema('demo')}.marks`)).toBe('1');
    expect(onPhoto0(bob, (s, id) => s.reviewed.of(id, 'objects')?.reviewedBy)).toBe('person');
    // Checked again on the next connection, held now: nothing goes twice.
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPushed: 0 });
  }, 240_000);
});
