/**
 * Work claims in a real PostgreSQL hub (issue 26 §2): twenty members claiming at once, each on
 * their own connection, never receive the same file over 100,000 claims; a member whose desktop
 * died (its connection gone, never releasing) has its claim come back once the lease ends, while
 * a member who keeps working keeps theirs; a file wanted twice goes to two distinct members; a
 * file whose lease ended is free for the lead to assign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignWork,
  claimWork,
  ensureWorkSchema,
  grantWork,
  myWork,
  renewWork,
  setLeaseSeconds,
} from '../../../../electron/core/team/hub-work.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const CLAIMERS = Array.from({ length: 20 }, (_, i) => `m${i}`);
const FILES = 100_000;

const files = (from: number, count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({
    contentHash: `${prefix}${from + i}`,
    relPath: `${prefix}/${from + i}.jpg`,
    size: 1,
    kind: 'image' as const,
    width: 1,
    height: 1,
  }));

beforeAll(async () => {
  hub = await hubRoles('demo', [...CLAIMERS, 'dead', 'alive']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  for (const m of [...CLAIMERS, 'dead', 'alive']) {
    await lead.addMember(m, 'annotator');
    await lead.use((sql) => grantWork(sql, S, m, 'annotator'));
  }
}, 180_000);

afterAll(() => hub?.remove());

describe('work claims', () => {
  it('never gives one file to two of 20 concurrent claimers, over 100,000 claims', async () => {
    const lead = hub.client('lead');
    for (let i = 0; i < FILES; i += 10_000) await lead.addFiles(files(i, 10_000, 'f'));
    const got = await Promise.all(
      CLAIMERS.map(async (m) => {
        const sql = hub.raw(m);
        const mine: string[] = [];
        for (;;) {
          const batch = await claimWork(sql, '"labeldesk_demo"', 500);
          if (batch.length === 0) return mine;
          mine.push(...batch.map((b) => b.contentHash));
        }
      }),
    );
    const all = got.flat();
    expect(all).toHaveLength(FILES);
    expect(new Set(all).size).toBe(FILES);
    // Every claimer had a share (they really claimed at the same time).
    expect(got.every((mine) => mine.length > 0)).toBe(true);
    const [row] = await hub.raw('lead')<{ n: number }[]>`
      SELECT count(*)::int AS n FROM labeldesk_demo.work WHERE holder IS NULL`;
    expect(row?.n).toBe(0);
  }, 600_000);

  it("gives back a dead desktop's claim when its lease ends, not a working member's", async () => {
    const lead = hub.client('lead');
    await lead.addFiles(files(0, 4, 'lease'));
    await lead.use((sql, s) => setLeaseSeconds(sql, s, 1));
    const dead = hub.client('dead');
    const taken = await dead.use((sql, s) => claimWork(sql, s, 2));
    expect(taken).toHaveLength(2);
    await dead.close(); // killed: it never releases
    const aliveSql = hub.raw('alive');
    const kept = await claimWork(aliveSql, '"labeldesk_demo"', 2);
    expect(kept.map((k) => k.contentHash).sort()).not.toContain(taken[0]?.contentHash);
    // Alive keeps working (renewing); dead's files come back once its lease has ended.
    const back = new Set<string>();
    const deadline = Date.now() + 20_000;
    while (back.size < 2 && Date.now() < deadline) {
      await renewWork(aliveSql, '"labeldesk_demo"', null);
      for (const b of await claimWork(aliveSql, '"labeldesk_demo"', 5)) back.add(b.contentHash);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect([...back].sort()).toEqual(taken.map((t) => t.contentHash).sort());
    const holding = (await myWork(aliveSql, '"labeldesk_demo"')).map((w) => w.contentHash);
    expect(holding.sort()).toEqual(files(0, 4, 'lease').map((f) => f.contentHash));
    // Alive reviews them: they leave the pool for good.
    await hub.raw('lead')`UPDATE labeldesk_demo.work SET done = true, done_at = now()
                          WHERE holder = 'alive'`;
  });

  it('hands a file wanted twice to two distinct members, never twice to one', async () => {
    const lead = hub.raw('lead');
    await hub.client('lead').addFiles(files(0, 1, 'twice'));
    await hub.client('lead').use((sql, s) => setLeaseSeconds(sql, s, 3600));
    await lead`UPDATE labeldesk_demo.work_files SET wanted_reviews = 2
               WHERE content_hash = 'twice0'`;
    const a = await claimWork(hub.raw('m0'), '"labeldesk_demo"', 5);
    const again = await claimWork(hub.raw('m0'), '"labeldesk_demo"', 5);
    const b = await claimWork(hub.raw('m1'), '"labeldesk_demo"', 5);
    const c = await claimWork(hub.raw('m2'), '"labeldesk_demo"', 5);
    expect(a.map((x) => x.contentHash)).toEqual(['twice0']);
    expect(again).toEqual([]);
    expect(b.map((x) => x.contentHash)).toEqual(['twice0']);
    expect(c).toEqual([]);
  });

  it("lets the lead assign a file whose holder's lease ended, to that member only", async () => {
    await hub.client('lead').addFiles(files(0, 1, 'gone'));
    const taken = await claimWork(hub.raw('dead'), '"labeldesk_demo"', 5);
    expect(taken.map((t) => t.contentHash)).toEqual(['gone0']);
    // Its desktop went away: its lease ends, and nobody has claimed anything since.
    await hub.raw('lead')`UPDATE labeldesk_demo.work SET lease_until = now() - interval '1 second'
                          WHERE content_hash = 'gone0'`;
    expect(await hub.client('lead').use((sql, s) => assignWork(sql, s, 'm6', 'gone'))).toBe(1);
    expect(await claimWork(hub.raw('m7'), '"labeldesk_demo"', 5)).toEqual([]);
    const m6 = await claimWork(hub.raw('m6'), '"labeldesk_demo"', 5);
    expect(m6.map((t) => t.contentHash)).toEqual(['gone0']);
    expect(await myWork(hub.raw('dead'), '"labeldesk_demo"')).toEqual([]);
  });
});
