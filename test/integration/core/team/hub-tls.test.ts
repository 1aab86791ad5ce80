/**
 * TLS with certificate verification against a real server: `sslmode=verify-full` with libpq's
 * `sslrootcert` (the CA file) connects over TLS; a certificate from another CA, or a host name
 * the certificate does not name, is refused before any password is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubClient } from '../../../../electron/core/team/hub-client.js';
import { startPgServer, type PgServer } from '../../../support/pg-server.js';

let server: PgServer;
let password: string;
const clients: HubClient[] = [];

beforeAll(async () => {
  server = await startPgServer({ tls: true });
  password = server.createRole('lead', { createSchema: true });
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await server?.remove();
});

function client(host: string, query: string): HubClient {
  const c = new HubClient({
    address: `postgresql://lead@${host}:${server.port}/${server.database}?${query}`,
    password,
    project: 'secure',
  });
  clients.push(c);
  return c;
}

describe('a hub over TLS', () => {
  it('connects with verify-full and the CA file, encrypted', async () => {
    const c = client('127.0.0.1', `sslmode=verify-full&sslrootcert=${server.caFile}`);
    await c.createProject('secure', '/data');
    expect(await c.whoAmI()).toEqual({ member: 'lead', role: 'lead' });
    // The client's own connection, seen by the server, is encrypted.
    const encrypted = server.sql(
      "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE s.ssl AND a.usename = 'lead'",
    );
    expect(Number(encrypted)).toBeGreaterThan(0);
  });

  it('refuses a certificate signed by another CA, and a host the certificate does not name', async () => {
    await expect(
      client('127.0.0.1', `sslmode=verify-full&sslrootcert=${server.otherCaFile}`).whoAmI(),
    ).rejects.toMatchObject({ code: 'hub_tls' });
    await expect(
      client('localhost', `sslmode=verify-full&sslrootcert=${server.caFile}`).whoAmI(),
    ).rejects.toMatchObject({ code: 'hub_tls' });
    // verify-ca checks the chain only, as libpq does.
    expect(
      await client('localhost', `sslmode=verify-ca&sslrootcert=${server.caFile}`).whoAmI(),
    ).toEqual({ member: 'lead', role: 'lead' });
  });
});
