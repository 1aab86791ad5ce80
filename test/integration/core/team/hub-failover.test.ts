/**
 * A hub address with two hosts against a real primary and its streaming standby (synchronous
 * replication): each target_session_attrs reaches the server libpq would, a refused login is
 * not tried on the next host, and when the primary dies and the standby is promoted a client
 * goes on by itself: its pushes reach the new primary, nothing acknowledged is lost, and its
 * LISTEN is made again there (a push by another member wakes it).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubClient } from '../../../../electron/core/team/hub-client.js';
import type { TeamChange } from '../../../../electron/core/store/team-types.js';
import { startPgServer, type PgServer } from '../../../support/pg-server.js';
import { startStandby, type PgStandby } from '../../../support/pg-standby.js';

let primary: PgServer;
let standby: PgStandby;
let password: string;
const clients: HubClient[] = [];

beforeAll(async () => {
  primary = await startPgServer();
  password = primary.createRole('lead', { createSchema: true });
  standby = await startStandby(primary, { synchronous: true });
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await standby?.remove();
  await primary?.remove();
});

/** A client of project `ha` whose address names the standby first, then the primary. */
function client(attrs: string, pw = password): HubClient {
  const c = new HubClient({
    address: `postgresql://lead@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/${primary.database}?target_session_attrs=${attrs}`,
    password: pw,
    project: 'ha',
  });
  clients.push(c);
  return c;
}

const change = (): TeamChange => ({
  id: randomUUID(),
  box: randomUUID(),
  contentHash: 'c'.repeat(64),
  solution: 'objects',
  parents: [],
  state: null,
  at: Date.now(),
});

const inRecovery = async (c: HubClient) =>
  (await c.query<{ r: boolean }[]>('SELECT pg_is_in_recovery() AS r', []))[0]?.r;

describe('a hub address with a primary and its standby', () => {
  it('reaches the server each target_session_attrs names, in the hosts order', async () => {
    await client('read-write').createProject('ha', '/data');
    expect(await inRecovery(client('read-write'))).toBe(false);
    expect(await inRecovery(client('primary'))).toBe(false);
    expect(await inRecovery(client('read-only'))).toBe(true);
    expect(await inRecovery(client('standby'))).toBe(true);
    expect(await inRecovery(client('prefer-standby'))).toBe(true);
    // `any`: the first host that answers, here the standby, which cannot take a push.
    const any = client('any');
    expect(await inRecovery(any)).toBe(true);
    await expect(any.push([change()])).rejects.toMatchObject({
      code: 'hub_unreachable',
      message: expect.stringMatching(/read-only/) as unknown,
    });
    // A refused login stops there, as in libpq: the next host is not tried with it.
    await expect(inRecovery(client('read-write', 'wrong'))).rejects.toMatchObject({
      code: 'bad_login',
    });
  });

  it('goes on to the promoted standby by itself, losing nothing and listening there again', async () => {
    const a = client('read-write');
    const b = client('read-write');
    let wakes = 0;
    let woken: (() => void) | undefined;
    await a.listen(() => {
      wakes += 1;
      woken?.();
    });
    const before = change();
    await a.push([before]);
    primary.kill();
    const during = change();
    // No primary yet: the hub is away (the standby answers read-only), not a failure.
    await expect(a.push([during])).rejects.toMatchObject({ code: 'hub_unreachable' });
    standby.promote();
    await a.push([during]);
    expect(a.connector.host?.port).toBe(standby.port);

    // The listening connection was made again on the new primary: b's push wakes a.
    await expect
      .poll(
        () =>
          standby.sql(
            `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'labeldesk' AND query ILIKE 'listen%'`,
          ),
        { timeout: 60_000, interval: 100 },
      )
      .toBe('1');
    const seen = wakes;
    const wokenAgain = new Promise<void>((resolve) => (woken = resolve));
    await b.push([change()]);
    await wokenAgain;
    expect(wakes).toBeGreaterThan(seen);

    const log = await b.pull(0, 100);
    expect(log.map((c) => c.id)).toEqual([before.id, during.id, log[2]?.id]);
    expect(new Set(log.map((c) => c.id)).size).toBe(3);
  });
});
