/**
 * Members of a hub project connecting from this test process: a real server, roles with
 * passwords, LabelDesk's hub client per role and the bare driver (as someone with `psql` would
 * connect), every connection closed when the file's tests end.
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { TeamChange } from '../../electron/core/store/team-types.js';
import { HubClient } from '../../electron/core/team/hub-client.js';
import { startPgServer, type PgServer } from './pg-server.js';

export interface HubRoles {
  server: PgServer;
  client(role: string): HubClient;
  raw(role: string): postgres.Sql;
  remove(): Promise<void>;
}

/** A server with `lead` (who may create schemas) and `others`; the project is named `project`. */
export async function hubRoles(project: string, others: readonly string[]): Promise<HubRoles> {
  const server = await startPgServer();
  const passwords: Record<string, string> = {};
  const open: { end(): Promise<unknown> }[] = [];
  passwords.lead = server.createRole('lead', { createSchema: true });
  for (const r of others) passwords[r] = server.createRole(r);
  return {
    server,
    client(role) {
      const c = new HubClient({
        address: server.url(role, '').replace(':@', '@'),
        password: passwords[role],
        project,
      });
      open.push({ end: () => c.close() });
      return c;
    },
    raw(role) {
      const sql = postgres(server.url(role, passwords[role] as string), {
        max: 1,
        onnotice: () => undefined,
      });
      open.push(sql);
      return sql;
    },
    async remove() {
      for (const c of open) await c.end().catch(() => undefined);
      await server.remove();
    },
  };
}

/** A change of a new box on `contentHash` (no state): what a member pushes when touching a file. */
export const changeOf = (contentHash: string): TeamChange => ({
  id: randomUUID(),
  box: randomUUID(),
  contentHash,
  solution: 'objects',
  parents: [],
  state: null,
  at: Date.now(),
});

/** A one-pixel image file of the project, `hash-N` at `N.jpg`: enough for the work tables. */
export const hubFile = (n: number) => ({
  contentHash: `hash-${n}`,
  relPath: `${n}.jpg`,
  size: 1,
  kind: 'image' as const,
  width: 1,
  height: 1,
});
