/**
 * A project's security is the database's own: a real PostgreSQL server, each member connecting
 * as their own role with the driver, refused by the server itself (grants, row-level security).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubClient } from '../../../../electron/core/team/hub-client.js';
import type { TeamChange } from '../../../../electron/core/store/team-types.js';
import { startPgServer, type PgServer } from '../../../support/pg-server.js';

let server: PgServer;
const passwords: Record<string, string> = {};
const open: { end(): Promise<unknown> }[] = [];

function client(role: string): HubClient {
  const c = new HubClient({
    address: server.url(role, '').replace(':@', '@'),
    password: passwords[role],
    project: 'demo',
  });
  open.push({ end: () => c.close() });
  return c;
}

/** The driver alone, as someone with `psql` would connect. */
function raw(role: string): postgres.Sql {
  const sql = postgres(server.url(role, passwords[role] as string), {
    max: 1,
    onnotice: () => undefined,
  });
  open.push(sql);
  return sql;
}

const change = (id: string): TeamChange => ({
  id,
  box: 'drawn:1',
  contentHash: 'abc',
  solution: 'objects',
  parents: [],
  state: null,
  at: 1,
});

beforeAll(async () => {
  server = await startPgServer();
  passwords.lead = server.createRole('lead', { createSchema: true });
  for (const r of ['alice', 'bob', 'mallory']) passwords[r] = server.createRole(r);
  const lead = client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.addMember('alice', 'annotator');
  await lead.addMember('bob', 'annotator');
}, 120_000);

afterAll(async () => {
  for (const c of open) await c.end().catch(() => undefined);
  await server?.remove();
});

describe('a team project in a real PostgreSQL hub', () => {
  it("keeps a member's change once, attributed to them, whatever they push twice", async () => {
    const alice = client('alice');
    const c = change('00000000-0000-4000-8000-000000000001');
    await alice.push([c]);
    await alice.push([c]);
    const pulled = await client('bob').pull(0, 100);
    expect(pulled.map((p) => [p.id, p.member])).toEqual([[c.id, 'alice']]);
    expect(await alice.whoAmI()).toEqual({ member: 'alice', role: 'annotator' });
  });

  it('refuses a member adding a change under another member, or rewriting the log', async () => {
    const sql = raw('alice');
    await expect(
      sql`INSERT INTO labeldesk_demo.changes (id, member, kind, payload)
          VALUES ('00000000-0000-4000-8000-000000000002', 'bob', 'box', '{}')`,
    ).rejects.toThrow(/row-level security/);
    await expect(sql`UPDATE labeldesk_demo.changes SET kind = 'x'`).rejects.toThrow(
      /permission denied/,
    );
    await expect(sql`DELETE FROM labeldesk_demo.changes`).rejects.toThrow(/permission denied/);
    await expect(sql`UPDATE labeldesk_demo.members SET role = 'lead'`).rejects.toThrow(
      /permission denied/,
    );
    // Not even the owner (the lead) may rewrite history.
    await expect(raw('lead')`TRUNCATE labeldesk_demo.changes`).rejects.toThrow(/append-only/);
    await expect(raw('lead')`DELETE FROM labeldesk_demo.changes`).rejects.toThrow(/append-only/);
  });

  it('refuses a role that is not a member', async () => {
    await expect(raw('mallory')`SELECT * FROM labeldesk_demo.changes`).rejects.toThrow(
      /permission denied/,
    );
    await expect(client('mallory').pull(0, 10)).rejects.toMatchObject({ code: 'hub_refused' });
  });

  it('refuses a removed member, on a connection opened before the removal too', async () => {
    const bob = raw('bob');
    expect((await bob`SELECT count(*)::int AS n FROM labeldesk_demo.changes`)[0]?.n).toBe(1);
    expect(await client('lead').removeMember('bob')).toBe(true);
    await expect(bob`SELECT count(*) FROM labeldesk_demo.changes`).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      client('bob').push([change('00000000-0000-4000-8000-000000000003')]),
    ).rejects.toMatchObject({ code: 'hub_refused' });
  });
});
