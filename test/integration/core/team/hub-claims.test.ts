/**
 * Claims on content in a real PostgreSQL hub: one run holds a content at a time, another run
 * learns who holds it, takes it only once the claim expired, and takes an answer instead of a
 * claim once the team has one. A member claims only as themself (row-level security).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const client = (role: string) => hub.client(role);
const raw = (role: string) => hub.raw(role);

const RUN_A = '00000000-0000-4000-8000-00000000000a';
const RUN_B = '00000000-0000-4000-8000-00000000000b';
const target = (run: string, ttlMs = 60_000) => ({
  solution: 'objects',
  service: 'http://svc',
  run,
  ttlMs,
});
const states = (replies: { contentHash: string; state: string; who: string }[]) =>
  Object.fromEntries(replies.map((r) => [r.contentHash, `${r.state} ${r.who}`]));

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob']);
  const lead = client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.addMember('alice', 'annotator');
  await lead.addMember('bob', 'annotator');
}, 120_000);

afterAll(() => hub?.remove());

describe('claims on content in the hub', () => {
  it('gives a content to one run, tells the other who holds it, and hands over answers', async () => {
    const alice = client('alice');
    const bob = client('bob');
    // Both ask at the same moment for overlapping contents: each content goes to one run only.
    const [a, b] = await Promise.all([
      alice.takeOrClaim(['h1', 'h2', 'h3'], target(RUN_A)),
      bob.takeOrClaim(['h2', 'h3', 'h4'], target(RUN_B)),
    ]);
    const claimedBy = [...a, ...b].filter((r) => r.state === 'claimed');
    expect(claimedBy.map((r) => r.contentHash).sort()).toEqual(['h1', 'h2', 'h3', 'h4']);
    // The same run asking again keeps what it holds; the other run is told who holds it.
    const again = states(await bob.takeOrClaim(['h1', 'h4'], target(RUN_B)));
    expect(again).toEqual({ h1: 'held alice', h4: 'claimed bob' });
    // Alice's answer for h1 reaches the hub: Bob takes it instead of claiming.
    await alice.addAnswers([
      {
        contentHash: 'h1',
        solution: 'objects',
        service: 'http://svc',
        answer: { analysedWidth: 10, analysedHeight: 10, model: 'm', detections: [] },
      },
    ]);
    const after = await bob.takeOrClaim(['h1'], target(RUN_B));
    expect(after).toMatchObject([{ contentHash: 'h1', state: 'answer', who: 'alice' }]);
    expect(after[0]?.answer).toMatchObject({ analysedWidth: 10, model: 'm' });
    // Another service's or solution's answer is not this one.
    expect(
      states(await bob.takeOrClaim(['h1'], { ...target(RUN_B), service: 'http://other' })),
    ).toEqual({ h1: 'claimed bob' });
  });

  it("takes over a dead run's claims only once they expired, and releases only its own", async () => {
    const alice = client('alice');
    const bob = client('bob');
    const dead = '00000000-0000-4000-8000-0000000000dd';
    await alice.takeOrClaim(['x1', 'x2'], target(dead, 300));
    expect(states(await bob.takeOrClaim(['x1'], target(RUN_B)))).toEqual({ x1: 'held alice' });
    // Bob's release of a content Alice holds frees nothing.
    await bob.releaseClaims(['x1'], target(dead));
    await new Promise((r) => setTimeout(r, 400));
    expect(states(await bob.takeOrClaim(['x1'], target(RUN_B)))).toEqual({ x1: 'claimed bob' });
    // A live run's renewal keeps its claim: x2 renewed by Alice's run is not Bob's to take.
    const live = '00000000-0000-4000-8000-0000000000ee';
    await alice.takeOrClaim(['x3'], target(live, 300));
    expect(await alice.renewClaims(live, 60_000)).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(states(await bob.takeOrClaim(['x3'], target(RUN_B)))).toEqual({ x3: 'held alice' });
  });

  it('lets a member claim, take over and free claims only under their own name', async () => {
    const sql = raw('alice');
    await expect(
      sql`INSERT INTO labeldesk_demo.claims (content_hash, solution, service, holder, run, expires_at)
          VALUES ('y1', 'objects', 'http://svc', 'bob', ${RUN_A}, now() + interval '1 hour')`,
    ).rejects.toThrow(/row-level security/);
    await client('bob').takeOrClaim(['y2'], target(RUN_B));
    // A live claim of Bob's: Alice can neither take it over (no row is hers to change) nor free it.
    const taken =
      await sql`UPDATE labeldesk_demo.claims SET holder = 'alice' WHERE content_hash = 'y2'`;
    expect(taken.count).toBe(0);
    const freed = await sql`DELETE FROM labeldesk_demo.claims WHERE content_hash = 'y2'`;
    expect(freed.count).toBe(0);
    // Nor may she renew hers under Bob's name.
    await client('alice').takeOrClaim(['y3'], target(RUN_A));
    await expect(
      sql`UPDATE labeldesk_demo.claims SET holder = 'bob' WHERE content_hash = 'y3'`,
    ).rejects.toThrow(/row-level security/);
    const rows = await raw('bob')`SELECT content_hash, holder FROM labeldesk_demo.claims
      WHERE content_hash IN ('y2', 'y3') ORDER BY content_hash`;
    expect(rows.map((r) => `${r.content_hash as string} ${r.holder as string}`)).toEqual([
      'y2 bob',
      'y3 alice',
    ]);
  });
});
