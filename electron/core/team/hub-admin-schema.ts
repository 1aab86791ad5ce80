/**
 * A lead who did not create the project administers it (issue 26 §1): adding, re-roling and
 * removing members takes GRANT and REVOKE on the schema's objects, which only their owner may
 * give. So the owner's desktop creates two SECURITY DEFINER functions that run as the owner:
 * each checks that the role logged in (`session_user`: inside the function `current_user` is the
 * owner) is a lead of this project, then runs the very grants `team member add/remove` runs for
 * the owner. `search_path` is pinned (pg_catalog, then pg_temp last) so no object of the caller's
 * can stand in for a built-in, and EXECUTE is granted to members only, never PUBLIC.
 *
 * The grants are taken from the code that makes them for the owner, as templates with a
 * placeholder role; the functions are stamped with a hash of their DDL and made again when the
 * code's grants change (hub-admin.ts).
 */
import { createHash } from 'node:crypto';
import { grantClaimsSql } from './hub-claims-schema.js';
import { grantMarksSql } from './hub-marks-schema.js';
import { grantQualitySql } from './hub-quality-schema.js';
import { grantMemberSql, quoteIdent, quoteLiteral, revokeMemberSql } from './hub-schema.js';
import { grantWorkSql } from './hub-work-schema.js';

/** Stands for the member's role in the templates (replaced, quoted, by the function). */
const PLACEHOLDER = 'labeldesk_member_placeholder';

/** What a member may execute here (added with their other rights, taken with them). */
const ADMIN_FUNCTIONS = (s: string) =>
  `${s}.admin_set_member(name, text), ${s}.admin_remove_member(name)`;

/** EXECUTE on the administration functions (the functions check the caller is a lead). */
export const grantAdminSql = (schema: string, role: string) =>
  `GRANT EXECUTE ON FUNCTION ${ADMIN_FUNCTIONS(quoteIdent(schema))} TO ${quoteIdent(role)};`;

const revokeAdminSql = (schema: string, role: string) =>
  `REVOKE ALL ON FUNCTION ${ADMIN_FUNCTIONS(quoteIdent(schema))} FROM ${quoteIdent(role)};`;

/** Every right of a member with this project role, as the owner's `team member add` gives them. */
function grantsTemplate(schema: string, memberRole: 'lead' | 'annotator'): string {
  return [
    grantMemberSql(schema, PLACEHOLDER, memberRole),
    grantClaimsSql(schema, PLACEHOLDER),
    grantMarksSql(schema, PLACEHOLDER),
    grantWorkSql(schema, PLACEHOLDER, memberRole),
    grantQualitySql(schema, PLACEHOLDER, memberRole),
    grantAdminSql(schema, PLACEHOLDER),
  ].join('\n');
}

const revokeTemplate = (schema: string) =>
  `${revokeAdminSql(schema, PLACEHOLDER)}\n${revokeMemberSql(schema, PLACEHOLDER)}`;

/** Runs a template for `p_role` (an identifier and a literal of it are replaced). */
const runTemplate = (template: string) => `
  EXECUTE replace(replace(${quoteLiteral(template)},
    ${quoteLiteral(quoteIdent(PLACEHOLDER))}, quote_ident(p_role)),
    ${quoteLiteral(quoteLiteral(PLACEHOLDER))}, quote_literal(p_role));`;

/** The caller must be a lead here; the owner's role is never changed nor removed. */
const checks = (s: string) => `
  IF NOT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = session_user AND role = 'lead') THEN
    RAISE EXCEPTION 'only a lead of this project adds, re-roles or removes its members'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF p_role = (SELECT r.rolname FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner
      WHERE n.nspname = ${quoteLiteral(s.slice(1, -1).replaceAll('""', '"'))}) THEN
    RAISE EXCEPTION 'the project''s creator stays its lead' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF position(${quoteLiteral(PLACEHOLDER)} IN p_role) > 0 THEN
    RAISE EXCEPTION 'no such role' USING ERRCODE = 'undefined_object';
  END IF;`;

function adminDdl(schema: string): string {
  const s = quoteIdent(schema);
  return `
  CREATE OR REPLACE FUNCTION ${s}.admin_set_member(p_role name, p_member_role text)
    RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $admin$
    BEGIN
      ${checks(s)}
      IF p_member_role NOT IN ('lead', 'annotator') THEN
        RAISE EXCEPTION 'a member is a lead or an annotator' USING ERRCODE = 'invalid_parameter_value';
      END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = p_role) THEN
        RAISE EXCEPTION 'There is no PostgreSQL role "%" on the hub', p_role
          USING ERRCODE = 'undefined_object';
      END IF;
      IF p_member_role = 'lead' THEN ${runTemplate(grantsTemplate(schema, 'lead'))}
      ELSE ${runTemplate(grantsTemplate(schema, 'annotator'))}
      END IF;
      UPDATE ${s}.members SET added_by = session_user WHERE role_name = p_role;
    END $admin$;

  -- False when the role was no member (or is the caller: a lead does not remove themself).
  CREATE OR REPLACE FUNCTION ${s}.admin_remove_member(p_role name)
    RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $admin$
    BEGIN
      ${checks(s)}
      IF p_role = session_user
          OR NOT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = p_role) THEN
        RETURN false;
      END IF;
      ${runTemplate(revokeTemplate(schema))}
      RETURN true;
    END $admin$;

  REVOKE ALL ON FUNCTION ${ADMIN_FUNCTIONS(s)} FROM PUBLIC;`;
}

/** The DDL and its stamp (a hash of it: other grants in the code, other functions). */
export function adminSchema(schema: string): { sql: string; stamp: string } {
  const sql = adminDdl(schema);
  const stamp = `labeldesk admin ${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`;
  return {
    sql: `${sql}\nCOMMENT ON FUNCTION ${quoteIdent(schema)}.admin_set_member(name, text) IS ${quoteLiteral(stamp)};`,
    stamp,
  };
}
