/**
 * Failover of a team hub (issue 26 §4): a real primary and a `pg_basebackup` standby
 * (synchronous), the primary killed (`pg_ctl stop -m immediate`) and the standby promoted. The
 * figure is the time from the kill to the first push a desktop's hub client gets through on
 * the new primary, beside a bare postgres.js client given the same two hosts (its own
 * multi-host reconnect, inserting a row), both retrying every 50 ms from the kill, in the same
 * run. `pg_ctl promote -w` blocks this process while it runs, the same for both; it is shown.
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { HubClient } from '../electron/core/team/hub-client.js';
import { startPgServer } from '../test/support/pg-server.js';
import { startStandby } from '../test/support/pg-standby.js';
import { fmt, printFigures } from './report.js';

const ROUNDS = 3;
const RETRY_MS = 50;

/** Retries `attempt` every 50 ms until it succeeds; when it did (ms epoch). */
async function firstSuccess(attempt: () => Promise<unknown>): Promise<number> {
  for (;;) {
    try {
      await attempt();
      return performance.now();
    } catch {
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
}

async function round(): Promise<{ promote: number; ours: number; bare: number }> {
  const primary = await startPgServer();
  const password = primary.createRole('lead', { createSchema: true });
  primary.sql('CREATE TABLE bare_failover (id uuid PRIMARY KEY)');
  primary.sql('GRANT INSERT ON bare_failover TO lead');
  const standby = await startStandby(primary, { synchronous: true });
  const hosts = `127.0.0.1:${primary.port},127.0.0.1:${standby.port}`;
  const hub = new HubClient({
    address: `postgresql://lead@${hosts}/${primary.database}?target_session_attrs=read-write`,
    password,
    project: 'bench',
  });
  const bare = postgres(`postgresql://lead@${hosts}/${primary.database}`, {
    password,
    max: 1,
    connect_timeout: 5,
    onnotice: () => undefined,
  });
  const change = () => ({
    id: randomUUID(),
    box: randomUUID(),
    contentHash: 'c'.repeat(64),
    solution: 'objects',
    parents: [],
    state: null,
    at: Date.now(),
  });
  try {
    await hub.createProject('bench', '/bench');
    await hub.push([change()]);
    await bare`INSERT INTO bare_failover VALUES (${randomUUID()})`;
    const killedAt = performance.now();
    primary.kill();
    const ours = firstSuccess(() => hub.push([change()]));
    const bareDone = firstSuccess(() => bare`INSERT INTO bare_failover VALUES (${randomUUID()})`);
    await new Promise((r) => setTimeout(r, 200));
    const promoteAt = performance.now();
    standby.promote();
    const promote = performance.now() - promoteAt;
    return { promote, ours: (await ours) - killedAt, bare: (await bareDone) - killedAt };
  } finally {
    await hub.close();
    await bare.end({ timeout: 1 });
    await standby.remove();
    await primary.remove();
  }
}

export async function benchTeamFailover(): Promise<void> {
  const rounds: Awaited<ReturnType<typeof round>>[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
  const median = (pick: (r: (typeof rounds)[number]) => number) =>
    rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)] ?? 0;
  const list = (pick: (r: (typeof rounds)[number]) => number) =>
    rounds.map((r) => fmt(pick(r), 0)).join(', ');
  printFigures('team-failover (real primary + streaming standby, started by the bench)', [
    {
      name: `kill → first push on the promoted standby, LabelDesk hub client (median of ${ROUNDS})`,
      value: `${fmt(
        median((r) => r.ours),
        0,
      )} ms (${list((r) => r.ours)})`,
    },
    {
      name: 'kill → first insert, bare postgres.js with the same two hosts (same run)',
      value: `${fmt(
        median((r) => r.bare),
        0,
      )} ms (${list((r) => r.bare)})`,
    },
    {
      name: 'of which: the primary dead 200 ms, then `pg_ctl promote -w`',
      value: `${fmt(
        median((r) => r.promote),
        0,
      )} ms (${list((r) => r.promote)})`,
    },
    {
      name: 'LabelDesk over bare (choosing the read-write host: a probe session per connection)',
      value: `${fmt(
        median((r) => r.ours - r.bare),
        0,
      )} ms`,
    },
  ]);
}
