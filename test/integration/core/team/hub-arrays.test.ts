/**
 * The hub's arrays written and read by LabelDesk (pg-arrays.ts), not by postgres.js's own array
 * handling (whose start-up fetch of the server's types could end the process): text and uuid
 * arrays go to a real server and come back element for element, however their text is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubClient } from '../../../../electron/core/team/hub-client.js';
import { startPgServer, type PgServer } from '../../../support/pg-server.js';

let server: PgServer;
let hub: HubClient;

beforeAll(async () => {
  server = await startPgServer();
  const password = server.createRole('lead', { createSchema: true });
  hub = new HubClient({ address: server.url('lead', password), password, project: 'demo' });
}, 120_000);

afterAll(async () => {
  await hub?.close().catch(() => undefined);
  await server?.remove();
});

const TRICKY = [
  'plain',
  'two words',
  'quote"d',
  'back\\slash',
  'comma, {braces}',
  '',
  'NULL',
  ' padded ',
  'ünïcode ✓',
  null,
];

describe('arrays on the hub', () => {
  it('sends and reads text and uuid arrays element for element', async () => {
    const uuids = ['0b7a3c8e-2f4d-4e1a-9c6b-5d8e7f6a1b2c', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'];
    const [row] = await hub.query<{ t: unknown; u: unknown; n: number; e: unknown }[]>(
      'SELECT $1::text[] AS t, $2::uuid[] AS u, cardinality($1::text[]) AS n, $3::text[] AS e',
      [TRICKY, uuids, []],
    );
    expect(row?.t).toEqual(TRICKY);
    expect(row?.u).toEqual(uuids);
    expect(row?.n).toBe(TRICKY.length);
    expect(row?.e).toEqual([]);
  });

  it('matches with ANY and reads an array the server builds', async () => {
    const rows = await hub.query<{ v: string }[]>(
      `SELECT v FROM unnest(ARRAY['a"1', 'b,2', 'c 3']) AS v WHERE v = ANY($1) ORDER BY v`,
      [['b,2', 'a"1', 'none']],
    );
    expect(rows.map((r) => r.v)).toEqual(['a"1', 'b,2']);
    const [agg] = await hub.query<{ a: unknown }[]>(
      `SELECT array_agg(v ORDER BY v) AS a FROM unnest($1::text[]) AS v`,
      [TRICKY.filter((v) => v !== null)],
    );
    expect(agg?.a).toEqual(TRICKY.filter((v) => v !== null).sort());
  });
});
