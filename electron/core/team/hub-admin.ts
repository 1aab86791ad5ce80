/**
 * Members added, re-roled and removed by any lead (hub-admin-schema.ts): the owner's desktop keeps
 * the SECURITY DEFINER functions current; another lead's desktop calls them, and the database
 * refuses anyone else.
 */
import type postgres from 'postgres';
import type { HubClient } from './hub-client.js';
import { adminSchema, grantAdminSql } from './hub-admin-schema.js';
import { grantQuality } from './hub-quality.js';
import { grantWork, releaseMemberWork } from './hub-work.js';
import { TeamError, teamErrorOf } from './team-errors.js';

type Hub = Pick<HubClient, 'use' | 'schema'>;
type FullHub = Hub & Pick<HubClient, 'addMember' | 'removeMember'>;

async function run<T>(hub: Hub, work: (sql: postgres.Sql, s: string) => Promise<T>): Promise<T> {
  try {
    return await hub.use(work);
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === '42704') {
      throw new TeamError(
        'unknown_role',
        `${(err as Error).message}: whoever runs the server creates it (CREATE ROLE … LOGIN PASSWORD …), then add it again.`,
      );
    }
    if (code === '42883') {
      throw new TeamError(
        'hub_format',
        "This project's hub cannot yet let a lead other than its creator add or remove members: its creator's next `team sync` enables it.",
      );
    }
    throw teamErrorOf(err, hub.schema);
  }
}

/** Whether the connecting role owns the project's schema (its creator). */
export const ownsProject = (hub: Hub): Promise<boolean> =>
  run(hub, async (sql) => {
    const [row] = await sql.unsafe<{ owner: boolean }[]>(
      `SELECT pg_get_userbyid(nspowner) = current_user AS owner FROM pg_namespace WHERE nspname = $1`,
      [hub.schema],
    );
    return row?.owner === true;
  });

/**
 * Creates or renews the administration functions when this role owns the project and they are
 * missing or older than this code's; every member then may call them. Whether it did.
 */
export function ensureAdmin(hub: Hub): Promise<boolean> {
  const { sql: ddl, stamp } = adminSchema(hub.schema);
  return run(hub, async (sql, s) => {
    const state = async (q: postgres.Sql | postgres.TransactionSql) => {
      const [row] = await q.unsafe<{ owner: boolean; stamp: string | null }[]>(
        `SELECT pg_get_userbyid(nspowner) = current_user AS owner,
           obj_description(to_regprocedure($2), 'pg_proc') AS stamp
         FROM pg_namespace WHERE nspname = $1`,
        [hub.schema, `${s}.admin_set_member(name, text)`],
      );
      return row;
    };
    const first = await state(sql);
    if (!first?.owner || first.stamp === stamp) return false;
    return sql.begin(async (tx) => {
      await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${hub.schema}.admin`]);
      if ((await state(tx))?.stamp === stamp) return false;
      await tx.unsafe(ddl).simple();
      const members = await tx.unsafe<{ role_name: string }[]>(
        `SELECT role_name FROM ${s}.members WHERE role_name <> current_user`,
      );
      for (const m of members) await tx.unsafe(grantAdminSql(hub.schema, m.role_name)).simple();
      return true;
    });
  });
}

/** Adds a member or changes their role, as a lead who is not the owner (the function checks). */
export const setMemberAsLead = (hub: Hub, role: string, memberRole: 'lead' | 'annotator') =>
  run(hub, async (sql, s) => {
    await sql.unsafe(`SELECT ${s}.admin_set_member($1, $2)`, [role, memberRole]);
  });

/** Removes a member as a lead who is not the owner; false when the role was no member. */
export const removeMemberAsLead = (hub: Hub, role: string) =>
  run(hub, async (sql, s) => {
    const [row] = await sql.unsafe<{ removed: boolean }[]>(
      `SELECT ${s}.admin_remove_member($1) AS removed`,
      [role],
    );
    return row?.removed === true;
  });

/**
 * `team member add`: the project's creator grants directly; another lead goes through the
 * owner's functions (the database refuses an annotator either way).
 */
export async function addProjectMember(
  hub: FullHub,
  role: string,
  memberRole: 'lead' | 'annotator',
): Promise<void> {
  if (!(await ownsProject(hub))) return setMemberAsLead(hub, role, memberRole);
  await hub.addMember(role, memberRole);
  await hub.use((sql) => grantWork(sql, hub.schema, role, memberRole));
  await grantQuality(hub, role, memberRole);
  await ensureAdmin(hub);
  await run(hub, (sql) => sql.unsafe(grantAdminSql(hub.schema, role)).simple());
}

/** `team member remove`; false when the role was no member. Their held work returns to the pool. */
export async function removeProjectMember(hub: FullHub, role: string): Promise<boolean> {
  const removed = (await ownsProject(hub))
    ? await hub.removeMember(role)
    : await removeMemberAsLead(hub, role);
  if (removed) await hub.use((sql) => releaseMemberWork(sql, hub.schema, role));
  return removed;
}
