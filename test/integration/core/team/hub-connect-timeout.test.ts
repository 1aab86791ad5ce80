/**
 * connect_timeout against hosts that never answer (issue 26 §4): a host that accepts the TCP
 * connection and then says nothing (a hung server), and one whose port never accepts (blackholed).
 * Given first in a multi-host address, each is given up after connect_timeout, as libpq gives a
 * host up, and the desktop reaches the real hub named next; alone, the statement fails as
 * hub_unreachable once the timeout has passed, instead of waiting for ever. The lower bounds show
 * the wait was the timeout's; the upper ones only that it ended (generous: a loaded machine).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubClient } from '../../../../electron/core/team/hub-client.js';
import { parseHubUrl } from '../../../../electron/core/team/hub-url.js';
import { startPgServer, type PgServer } from '../../../support/pg-server.js';
import { acceptsSilently, neverAccepts, type SilentHost } from '../../../support/silent-hosts.js';

let pg: PgServer;
let password: string;
const hosts: Record<'silent' | 'blackholed', SilentHost> = {} as never;
const clients: HubClient[] = [];

beforeAll(async () => {
  pg = await startPgServer();
  password = pg.createRole('lead', { createSchema: true });
  hosts.silent = await acceptsSilently();
  hosts.blackholed = await neverAccepts();
  const setup = client(`127.0.0.1:${pg.port}`, 'any');
  await setup.createProject('quiet', '/data');
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const h of Object.values(hosts)) await h?.close();
  await pg?.remove();
});

function client(hostList: string, attrs: string): HubClient {
  const c = new HubClient({
    address: `postgresql://lead@${hostList}/${pg.database}?target_session_attrs=${attrs}&connect_timeout=2`,
    password,
    project: 'quiet',
  });
  clients.push(c);
  return c;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - t0) / 1000 };
}

describe('connect_timeout to a host that never answers', () => {
  for (const kind of ['silent', 'blackholed'] as const) {
    for (const attrs of ['any', 'read-write']) {
      it(`gives a ${kind} first host up after connect_timeout and reaches the next (${attrs})`, async () => {
        const c = client(`127.0.0.1:${hosts[kind].port},127.0.0.1:${pg.port}`, attrs);
        const { value: who, seconds } = await timed(() => c.whoAmI());
        expect(who.role).toBe('lead');
        expect(c.connector.host).toEqual({ host: '127.0.0.1', port: pg.port });
        expect(seconds).toBeGreaterThanOrEqual(1.9);
        expect(seconds).toBeLessThan(30);
      }, 60_000);
    }

    it(`fails as hub_unreachable after connect_timeout when the ${kind} host is the only one`, async () => {
      const c = client(`127.0.0.1:${hosts[kind].port}`, 'any');
      const t0 = performance.now();
      await expect(c.whoAmI()).rejects.toMatchObject({ code: 'hub_unreachable' });
      const seconds = (performance.now() - t0) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(1.9);
      expect(seconds).toBeLessThan(30);
    }, 60_000);
  }

  it('reads connect_timeout from a keyword/value address as from a URL', async () => {
    const { address } = parseHubUrl(
      `host=127.0.0.1,127.0.0.1 port=${hosts.silent.port},${pg.port} dbname=${pg.database} user=lead connect_timeout = 3`,
    );
    const c = new HubClient({
      address,
      password,
      project: 'quiet',
    });
    clients.push(c);
    const { seconds } = await timed(() => c.whoAmI());
    expect(seconds).toBeGreaterThanOrEqual(2.9);
  }, 60_000);
});
