/**
 * The team bench's hub: a real PostgreSQL server started by the bench (test/support/pg-server.ts),
 * a project created by its lead through LabelDesk's own client, and members with roles of their
 * own. Also the bare operations the figures stand beside, on the same server in the same run: a
 * plain table shaped like the change log (no row security, no triggers), written and read with
 * plain postgres.js statements, and a plain NOTIFY to plain listening connections.
 */
import postgres from 'postgres';
import { HubClient } from '../electron/core/team/hub-client.js';
import { projectSchema, quoteIdent } from '../electron/core/team/hub-schema.js';
import { startPgServer, type PgServer } from '../test/support/pg-server.js';

export const PROJECT = 'bench';
export const SCHEMA = projectSchema(PROJECT);
const S = quoteIdent(SCHEMA);

export interface HubMember {
  name: string;
  /** The hub's address without the password, and the password (as the keychain would give it). */
  address: string;
  password: string;
  client(): HubClient;
}

export interface BenchHub {
  server: PgServer;
  /** A superuser connection (setup, sizes and the bare baselines). */
  sql: postgres.Sql;
  lead: HubMember;
  /** Creates a role and adds it to the project as an annotator. */
  addMember(name: string): Promise<HubMember>;
  close(): Promise<void>;
}

function memberOf(server: PgServer, name: string, password: string): HubMember {
  const address = `postgresql://${name}@127.0.0.1:${server.port}/${server.database}`;
  return {
    name,
    address,
    password,
    client: () => new HubClient({ address, password, project: PROJECT }),
  };
}

export async function startBenchHub(): Promise<BenchHub> {
  const server = await startPgServer();
  const lead = memberOf(server, 'lead', server.createRole('lead', { createSchema: true }));
  const leadClient = lead.client();
  await leadClient.createProject(PROJECT, '/data');
  const sql = postgres(server.url(server.superuser, server.superPassword), {
    max: 4,
    onnotice: () => undefined,
  });
  return {
    server,
    sql,
    lead,
    async addMember(name) {
      const member = memberOf(server, name, server.createRole(name));
      await leadClient.addMember(name, 'annotator');
      return member;
    },
    async close() {
      await leadClient.close();
      await sql.end({ timeout: 2 });
      await server.remove();
    },
  };
}

/** A change row as the hub keeps it: its id and its payload (what a desktop pushes). */
export interface BareChange {
  id: string;
  payload: unknown;
}

/** Bare insert: the rows, 1,000 per statement, in one transaction, into a plain table. */
export async function bareInsert(sql: postgres.Sql, rows: readonly BareChange[]): Promise<number> {
  await sql.unsafe(`DROP TABLE IF EXISTS bare_changes;
    CREATE TABLE bare_changes (seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE,
      member name NOT NULL DEFAULT current_user, at timestamptz NOT NULL DEFAULT now(),
      kind text NOT NULL, payload jsonb NOT NULL)`);
  const t = performance.now();
  await sql.begin(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) {
      const page = rows.slice(i, i + 1000).map((r) => ({
        id: r.id,
        kind: 'box',
        payload: sql.json(r.payload as postgres.JSONValue),
      }));
      await tx`INSERT INTO bare_changes ${tx(page, 'id', 'kind', 'payload')}`;
    }
  });
  return performance.now() - t;
}

/** Bare read: the project's last `count` changes in one plain query (what a pull must read). */
export async function bareRead(
  sql: postgres.Sql,
  after: number,
): Promise<{ ms: number; rows: unknown[] }> {
  const t = performance.now();
  const rows = await sql.unsafe(
    `SELECT seq, id, member, payload FROM ${S}.changes WHERE seq > $1 ORDER BY seq`,
    [after],
  );
  return { ms: performance.now() - t, rows: [...rows] };
}

/** Bare NOTIFY: one plain notification to `listeners` plain connections; each round's time to the last. */
export async function bareNotify(
  server: PgServer,
  listeners: number,
  rounds: number,
): Promise<number[]> {
  const url = server.url(server.superuser, server.superPassword);
  const conns = Array.from({ length: listeners }, () =>
    postgres(url, { max: 1, onnotice: () => undefined }),
  );
  const notifier = postgres(url, { max: 1 });
  let waiting = 0;
  let done: (() => void) | undefined;
  try {
    await Promise.all(
      conns.map((c) =>
        c.listen('bare_bench', () => {
          if (--waiting === 0) done?.();
        }),
      ),
    );
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      waiting = listeners;
      const all = new Promise<void>((resolve) => (done = resolve));
      const t = performance.now();
      await notifier`SELECT pg_notify('bare_bench', '')`;
      await all;
      times.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return times;
  } finally {
    await Promise.all([...conns, notifier].map((c) => c.end({ timeout: 2 })));
  }
}
