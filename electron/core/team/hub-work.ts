/**
 * Work claims on a project in the hub (hub-work-schema.ts): claim, renew, release, list one's
 * claim; the lead's assignments, take-backs and lease setting; the schema's upgrade. Functions of
 * a connection (`HubClient.use`), so hub-client.ts stays small. Every refusal is the database's.
 */
import type postgres from 'postgres';
import { quoteIdent } from './hub-schema.js';
import { grantWorkSql, WORK_SCHEMA_VERSION, workSchemaSql } from './hub-work-schema.js';
import { workFilterParams, workFilterSql, type WorkFilter } from './work-filter.js';

/** A file one holds: its content, its path in the project folder, and when the lease ends. */
export interface WorkItem {
  contentHash: string;
  relPath: string;
  leaseUntil: number;
}

/** Claims up to `want` files for the connecting member (one round trip), best first. */
export const claimWorkSql = (s: string) => `
  SELECT c.claimed_hash AS content_hash, c.claimed_until AS lease_until,
    (SELECT f.rel_path FROM ${s}.files f WHERE f.content_hash = c.claimed_hash) AS rel_path
  FROM ${s}.claim_work($1::integer) c`;

/** Extends the member's live leases ($1: hashes, or null for all); returns what is still held. */
export const renewWorkSql = (s: string) => `
  UPDATE ${s}.work w SET lease_until = now() + ${s}.lease_interval()
  FROM ${s}.files f
  WHERE f.content_hash = w.content_hash AND w.holder = current_user AND NOT w.done
    AND w.lease_until > now() AND ($1::text[] IS NULL OR w.content_hash = ANY($1::text[]))
  RETURNING w.content_hash, f.rel_path, w.lease_until`;

/** Gives back the member's held files ($1: hashes, or null for all). */
export const releaseWorkSql = (s: string) => `
  UPDATE ${s}.work SET holder = NULL, lease_until = NULL
  WHERE holder = current_user AND NOT done
    AND ($1::text[] IS NULL OR content_hash = ANY($1::text[]))`;

/** The member's live claim, best first. */
export const myWorkSql = (s: string) => `
  SELECT w.content_hash, f.rel_path, w.lease_until FROM ${s}.work w
  JOIN ${s}.files f ON f.content_hash = w.content_hash
  WHERE w.holder = current_user AND NOT w.done AND w.lease_until > now()
  ORDER BY w.priority DESC, w.content_hash`;

type Row = { content_hash: string; rel_path: string; lease_until: Date };
const itemOf = (r: Row): WorkItem => ({
  contentHash: r.content_hash,
  relPath: r.rel_path,
  leaseUntil: r.lease_until.getTime(),
});

export async function claimWork(sql: postgres.Sql, s: string, want: number): Promise<WorkItem[]> {
  return (await sql.unsafe<Row[]>(claimWorkSql(s), [want])).map(itemOf);
}

export async function renewWork(
  sql: postgres.Sql,
  s: string,
  hashes: readonly string[] | null,
): Promise<WorkItem[]> {
  return (await sql.unsafe<Row[]>(renewWorkSql(s), [hashes as string[] | null])).map(itemOf);
}

export async function releaseWork(
  sql: postgres.Sql,
  s: string,
  hashes: readonly string[] | null,
): Promise<number> {
  return (await sql.unsafe(releaseWorkSql(s), [hashes as string[] | null])).count;
}

export async function myWork(sql: postgres.Sql, s: string): Promise<WorkItem[]> {
  return (await sql.unsafe<Row[]>(myWorkSql(s))).map(itemOf);
}

/** `prefix` as a LIKE pattern matching it and everything under it (a folder). */
const underFolder = (folder: string) => {
  // '.' (or './') is the project's folder itself: every file.
  const clean = folder
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '')
    .replace(/^\.$/, '');
  const escaped = clean.replace(/[\\%_]/g, (c) => `\\${c}`);
  return clean === '' ? '%' : `${escaped}/%`;
};

/**
 * The lead assigns the files under a folder (relative to the project's), and that pass `filter`
 * (work-filter.ts), to a member: per file its first slot not done, not held by someone else (an
 * ended lease holds nothing), and not one of a file they already reviewed.
 * Returns how many files.
 */
export async function assignWork(
  sql: postgres.Sql,
  s: string,
  member: string,
  folder: string,
  filter: WorkFilter = {},
): Promise<number> {
  const rows = await sql.unsafe(
    `UPDATE ${s}.work w SET assigned_to = $1
     FROM (SELECT DISTINCT ON (x.content_hash) x.content_hash, x.slot FROM ${s}.work x
       JOIN ${s}.files f ON f.content_hash = x.content_hash
       WHERE f.rel_path LIKE $2 ESCAPE '\\' AND NOT x.done
         AND (x.holder IS NULL OR x.holder = $1 OR x.lease_until < now())
         AND NOT EXISTS (SELECT 1 FROM ${s}.work d
           WHERE d.content_hash = x.content_hash AND d.holder = $1 AND d.done)
         ${workFilterSql(s, 3)}
       ORDER BY x.content_hash, (x.assigned_to IS NOT DISTINCT FROM $1) DESC, x.slot) p
     WHERE w.content_hash = p.content_hash AND w.slot = p.slot`,
    [member, underFolder(folder), ...workFilterParams(filter)],
  );
  return rows.count;
}

/**
 * The lead takes work back from a member (under a folder, or all): their assignments and their
 * held, unfinished slots return to the pool. Finished reviews stay theirs.
 */
export async function takeBackWork(
  sql: postgres.Sql,
  s: string,
  member: string,
  folder: string | null,
): Promise<number> {
  const rows = await sql.unsafe(
    `UPDATE ${s}.work w SET assigned_to = CASE WHEN w.assigned_to = $1 THEN NULL ELSE w.assigned_to END,
       holder = CASE WHEN w.holder = $1 THEN NULL ELSE w.holder END,
       lease_until = CASE WHEN w.holder = $1 THEN NULL ELSE w.lease_until END
     FROM ${s}.files f
     WHERE f.content_hash = w.content_hash AND NOT w.done
       AND (w.assigned_to = $1 OR w.holder = $1) AND f.rel_path LIKE $2 ESCAPE '\\'`,
    [member, folder === null ? '%' : underFolder(folder)],
  );
  return rows.count;
}

/** The lead sets how long an idle claim lasts (the database refuses an annotator). */
export async function setLeaseSeconds(sql: postgres.Sql, s: string, seconds: number) {
  await sql.unsafe(
    `UPDATE ${s}.project SET settings = jsonb_set(settings, '{leaseSeconds}', to_jsonb($1::integer))`,
    [seconds],
  );
}

export async function leaseSeconds(sql: postgres.Sql, s: string): Promise<number> {
  const [row] = await sql.unsafe<{ seconds: number }[]>(
    `SELECT extract(epoch FROM ${s}.lease_interval())::integer AS seconds`,
  );
  return row?.seconds ?? 0;
}

/**
 * Brings a project's hub up to the work schema when the connecting role owns it (the lead who
 * created it), once: a project made before issue 26 grows its tables, and every member gets
 * their rights on them. Returns whether it applied anything. Others' connections do nothing.
 */
export async function ensureWorkSchema(sql: postgres.Sql, schema: string): Promise<boolean> {
  const s = quoteIdent(schema);
  const state = async (q: postgres.Sql | postgres.TransactionSql) => {
    const [row] = await q.unsafe<{ owner: boolean; version: string | null }[]>(
      `SELECT n.nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) AS owner,
         obj_description(to_regclass($2), 'pg_class') AS version
       FROM pg_namespace n WHERE n.nspname = $1`,
      [schema, `${s}.work`],
    );
    return row;
  };
  const first = await state(sql);
  if (!first?.owner || first.version === WORK_SCHEMA_VERSION) return false;
  return sql.begin(async (tx) => {
    // Two of the lead's desktops at once: one applies, the other finds it done.
    await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${schema}.work-schema`]);
    if ((await state(tx))?.version === WORK_SCHEMA_VERSION) return false;
    await tx.unsafe(workSchemaSql(schema)).simple();
    const members = await tx.unsafe<{ role_name: string; role: 'lead' | 'annotator' }[]>(
      `SELECT role_name, role FROM ${s}.members
       WHERE role_name <> (SELECT r.rolname FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
         WHERE n.nspname = $1)`,
      [schema],
    );
    for (const m of members) {
      await tx.unsafe(grantWorkSql(schema, m.role_name, m.role)).simple();
    }
    return true;
  });
}

/** A member's rights on the work (after `team member add`), the schema upgraded first. */
export async function grantWork(
  sql: postgres.Sql,
  schema: string,
  role: string,
  memberRole: 'lead' | 'annotator',
): Promise<void> {
  await ensureWorkSchema(sql, schema);
  // The schema's owner has every right already (revoking from it would take them away).
  const [owner] = await sql.unsafe<{ is: boolean }[]>(
    `SELECT n.nspowner = (SELECT oid FROM pg_roles WHERE rolname = $2) AS is
     FROM pg_namespace n WHERE n.nspname = $1`,
    [schema, role],
  );
  if (owner?.is) return;
  await sql.unsafe(grantWorkSql(schema, role, memberRole)).simple();
}

/** A removed member's held, unfinished slots and assignments return to the pool. */
export async function releaseMemberWork(sql: postgres.Sql, schema: string, role: string) {
  await takeBackWork(sql, quoteIdent(schema), role, null);
}
