/**
 * Roles enforced by the database (issue 26 §1): an annotator connecting with the bare driver, as
 * with `psql`, is refused by the server itself what is the lead's (settings, members, assignments,
 * others' claims and finished work, settling others' conflicts), and may do their own part (claim,
 * renew, release, take a slot whose lease ended, settle a conflict over their own box). An old hub
 * (made without the work tables) is upgraded once, by its lead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamChange } from '../../../../electron/core/store/team-types.js';
import {
  assignWork,
  ensureWorkSchema,
  grantWork,
  setLeaseSeconds,
} from '../../../../electron/core/team/hub-work.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const file = (n: string) => ({
  contentHash: `hash-${n}`,
  relPath: n,
  size: 1,
  kind: 'image' as const,
  width: 1,
  height: 1,
});
const change = (id: string, parents: string[]): TeamChange => ({
  id,
  box: 'drawn:1',
  contentHash: 'hash-a.jpg',
  solution: 'objects',
  parents,
  state: null,
  at: 1,
});
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const holders = async () =>
  Object.fromEntries(
    (
      await hub.raw('lead')<{ content_hash: string; holder: string | null }[]>`
        SELECT content_hash, holder FROM labeldesk_demo.work ORDER BY content_hash`
    ).map((r) => [r.content_hash, r.holder]),
  );

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob', 'carol']);
  const lead = hub.client('lead');
  // An old hub: the project, its members and files, as before the work tables existed.
  await lead.createProject('demo', '/data/demo');
  await lead.addMember('alice', 'annotator');
  await lead.addMember('bob', 'annotator');
  await lead.addFiles(['a.jpg', 'sub/b.jpg', 'sub/c.jpg'].map(file));
}, 120_000);

afterAll(() => hub?.remove());

describe('roles enforced by the hub', () => {
  it('upgrades an old hub once, by its lead only, with every member given their rights', async () => {
    expect(await hub.client('alice').use((sql) => ensureWorkSchema(sql, S))).toBe(false);
    await expect(hub.raw('alice')`SELECT * FROM labeldesk_demo.work`).rejects.toThrow(
      /does not exist/,
    );
    const lead = hub.client('lead');
    expect(await lead.use((sql) => ensureWorkSchema(sql, S))).toBe(true);
    expect(await lead.use((sql) => ensureWorkSchema(sql, S))).toBe(false);
    expect(await holders()).toEqual({
      'hash-a.jpg': null,
      'hash-sub/b.jpg': null,
      'hash-sub/c.jpg': null,
    });
    // Members from before the upgrade read the work; a lead added now gets the lead's rights.
    expect((await hub.raw('alice')`SELECT count(*)::int AS n FROM labeldesk_demo.work`)[0]?.n).toBe(
      3,
    );
    await lead.addMember('carol', 'lead');
    await lead.use((sql) => grantWork(sql, S, 'carol', 'lead'));
  });

  it("refuses an annotator the lead's statements", async () => {
    const alice = hub.raw('alice');
    const denied = /permission denied/;
    await expect(
      alice`UPDATE labeldesk_demo.project SET settings = '{"leaseSeconds": 1}'`,
    ).rejects.toThrow(denied);
    await expect(
      hub.client('alice').use((sql, s) => setLeaseSeconds(sql, s, 5)),
    ).rejects.toMatchObject({ code: 'hub_refused' });
    await expect(
      alice`INSERT INTO labeldesk_demo.members (role_name, role) VALUES ('alice', 'lead')`,
    ).rejects.toThrow(denied);
    await expect(alice`DELETE FROM labeldesk_demo.members WHERE role_name = 'bob'`).rejects.toThrow(
      denied,
    );
    await expect(alice`UPDATE labeldesk_demo.work SET assigned_to = 'alice'`).rejects.toThrow(
      denied,
    );
    await expect(alice`UPDATE labeldesk_demo.work SET priority = 99`).rejects.toThrow(denied);
    await expect(alice`UPDATE labeldesk_demo.work_files SET wanted_reviews = 2`).rejects.toThrow(
      denied,
    );
    await expect(alice`DELETE FROM labeldesk_demo.work`).rejects.toThrow(denied);
    await expect(
      alice`INSERT INTO labeldesk_demo.work (content_hash, slot) VALUES ('hash-a.jpg', 2)`,
    ).rejects.toThrow(denied);
    // A slot may not be finished, or held, under another member's name.
    await expect(
      alice`UPDATE labeldesk_demo.work SET holder = 'bob', lease_until = now() + interval '1 hour'
            WHERE content_hash = 'hash-a.jpg'`,
    ).rejects.toThrow(/row-level security/);
  });

  it("lets an annotator claim, renew and release their own work, never another's", async () => {
    const bob = hub.raw('bob');
    const alice = hub.raw('alice');
    const [b] = await bob`SELECT claimed_hash FROM labeldesk_demo.claim_work(1)`;
    expect(b?.claimed_hash).toBeTruthy();
    const bobs = b?.claimed_hash as string;
    // Alice cannot release, steal or finish Bob's live claim: row security hides it from her.
    expect(
      (await alice`UPDATE labeldesk_demo.work SET holder = NULL WHERE content_hash = ${bobs}`)
        .count,
    ).toBe(0);
    expect(
      (await alice`UPDATE labeldesk_demo.work SET holder = 'alice' WHERE content_hash = ${bobs}`)
        .count,
    ).toBe(0);
    expect((await holders())[bobs]).toBe('bob');
    // Her own claim never includes his file; she renews and releases hers.
    const mine = await alice`SELECT claimed_hash FROM labeldesk_demo.claim_work(5)`;
    expect(mine.map((r) => r.claimed_hash).sort()).toEqual(
      ['hash-a.jpg', 'hash-sub/b.jpg', 'hash-sub/c.jpg'].filter((h) => h !== bobs),
    );
    expect(
      (
        await alice`UPDATE labeldesk_demo.work SET lease_until = now() + interval '1 minute'
                   WHERE holder = 'alice'`
      ).count,
    ).toBe(2);
    expect(
      (
        await alice`UPDATE labeldesk_demo.work SET holder = NULL, lease_until = NULL
                   WHERE holder = 'alice'`
      ).count,
    ).toBe(2);
    // Once Bob's lease has ended (the lead shortens it), his file is anyone's again.
    await hub.raw('lead')`UPDATE labeldesk_demo.work SET lease_until = now() - interval '1 second'
                          WHERE holder = 'bob'`;
    const again = await alice`SELECT claimed_hash FROM labeldesk_demo.claim_work(3)`;
    expect(again.map((r) => r.claimed_hash)).toContain(bobs);
    expect(Object.values(await holders())).toEqual(['alice', 'alice', 'alice']);
  });

  it('lets the leads assign and set the lease, and an annotator take only their own assignments', async () => {
    const lead = hub.client('lead');
    await hub.raw('alice')`UPDATE labeldesk_demo.work SET holder = NULL, lease_until = NULL
                           WHERE holder = 'alice'`;
    // Carol, added as a lead, assigns sub/ to Bob: Alice's claims skip it.
    expect(await hub.client('carol').use((sql, s) => assignWork(sql, s, 'bob', 'sub'))).toBe(2);
    const a = await hub.raw('alice')`SELECT claimed_hash FROM labeldesk_demo.claim_work(5)`;
    expect(a.map((r) => r.claimed_hash)).toEqual(['hash-a.jpg']);
    const b = await hub.raw('bob')`SELECT claimed_hash FROM labeldesk_demo.claim_work(5)`;
    expect(b.map((r) => r.claimed_hash).sort()).toEqual(['hash-sub/b.jpg', 'hash-sub/c.jpg']);
    await lead.use((sql, s) => setLeaseSeconds(sql, s, 120));
    await hub.client('carol').use((sql, s) => setLeaseSeconds(sql, s, 60));
    const [row] = await hub.raw('alice')`SELECT labeldesk_demo.lease_interval()::text AS lease`;
    expect(row?.lease).toBe('00:01:00');
  });

  it("refuses an annotator settling other members' conflict, and lets them settle their own", async () => {
    const bob = hub.client('bob');
    const lead = hub.client('lead');
    await bob.push([change(id(1), [])]);
    await lead.push([change(id(2), [])]);
    await expect(hub.client('alice').push([change(id(3), [id(1), id(2)])])).rejects.toMatchObject({
      code: 'hub_refused',
      message: expect.stringMatching(/lead's/),
    });
    // An own version pushed in the same batch as the settlement counts as the member's.
    await hub.client('alice').push([change(id(4), []), change(id(5), [id(1), id(4)])]);
    await bob.push([change(id(6), [id(1), id(2)])]);
    await lead.push([change(id(7), [id(5), id(6)])]);
    const pulled = await lead.pull(0, 100);
    expect(pulled.map((p) => p.id)).toEqual([1, 2, 4, 5, 6, 7].map(id));
  });
});
