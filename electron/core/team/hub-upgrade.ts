/**
 * Brings a project made before the claims and marks tables existed up to date: the tables (with
 * their row security, order and NOTIFY) and every member's rights on them, in one transaction.
 * Only the schema's owner may create tables in it, so the lead's desktop does this when it joins
 * or syncs (and when its app starts syncing); a project that has them is left as it is.
 */
import type postgres from 'postgres';
import { claimsTableSql, grantClaimsSql } from './hub-claims-schema.js';
import { grantMarksSql, marksTableSql } from './hub-marks-schema.js';
import { quoteIdent } from './hub-schema.js';

/** Adds what the project lacks; whether anything was added. */
export async function upgradeHub(sql: postgres.Sql, schema: string): Promise<boolean> {
  const s = quoteIdent(schema);
  const [has] = await sql<{ claims: boolean; marks: boolean }[]>`
    SELECT to_regclass(${`${s}.claims`}) IS NOT NULL AS claims,
      to_regclass(${`${s}.marks`}) IS NOT NULL AS marks`;
  if (!has || (has.claims && has.marks)) return false;
  await sql.begin(async (tx) => {
    if (!has.claims) await tx.unsafe(claimsTableSql(s)).simple();
    if (!has.marks) await tx.unsafe(marksTableSql(s, schema)).simple();
    const members = await tx.unsafe<{ role_name: string }[]>(
      `SELECT role_name FROM ${s}.members WHERE role_name <> current_user`,
    );
    for (const { role_name: role } of members) {
      if (!has.claims) await tx.unsafe(grantClaimsSql(schema, role)).simple();
      if (!has.marks) await tx.unsafe(grantMarksSql(schema, role)).simple();
    }
  });
  return true;
}
