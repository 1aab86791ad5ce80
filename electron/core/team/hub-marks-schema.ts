/**
 * Review marks in the hub: a file declared reviewed (by a person, or by an import of labels), or
 * no longer, for a solution. An append-only log per project like the changes' (members add rows
 * only under their own name; nobody rewrites it), keyed by content, not by any desktop's ids.
 * Desktops apply the log in its order: a file's mark is the last one logged for it.
 */
import { changesChannel, quoteIdent, quoteLiteral } from './hub-schema.js';

/** The table, its row security and its NOTIFY (part of a new project's DDL; `s` quoted). */
export function marksTableSql(s: string, schema: string): string {
  return `
    CREATE TABLE ${s}.marks (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      member name NOT NULL DEFAULT current_user,
      at timestamptz NOT NULL DEFAULT now(),
      content_hash text NOT NULL,
      solution text NOT NULL,
      reviewed boolean NOT NULL,
      reviewed_by text CHECK (reviewed_by IN ('person', 'import'))
    );
    -- Serialised like the changes: seq order is commit order, so no reader skips a mark.
    CREATE FUNCTION ${s}.marks_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(hashtext(${quoteLiteral(`${schema}.marks`)})); RETURN NULL; END $$;
    CREATE TRIGGER marks_in_order BEFORE INSERT ON ${s}.marks
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.marks_in_order();
    CREATE FUNCTION ${s}.marks_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify(${quoteLiteral(changesChannel(schema))}, ''); RETURN NULL; END $$;
    CREATE TRIGGER marks_notify AFTER INSERT ON ${s}.marks
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.marks_notify();
    CREATE TRIGGER marks_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${s}.marks
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.changes_append_only();
    ALTER TABLE ${s}.marks ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.marks FORCE ROW LEVEL SECURITY;
    CREATE POLICY members_read ON ${s}.marks FOR SELECT USING (${s}.is_member());
    CREATE POLICY members_add_own ON ${s}.marks FOR INSERT
      WITH CHECK (member = current_user AND ${s}.is_member());`;
}

export function grantMarksSql(schema: string, role: string): string {
  const s = quoteIdent(schema);
  const r = quoteIdent(role);
  return `GRANT SELECT, INSERT ON ${s}.marks TO ${r};
    GRANT USAGE ON SEQUENCE ${s}.marks_seq_seq TO ${r};`;
}

/** $1: the marks as a JSON array ({id, contentHash, solution, reviewed, reviewedBy}). */
export const pushMarksSql = (s: string) => `
  INSERT INTO ${s}.marks (id, content_hash, solution, reviewed, reviewed_by)
  SELECT (x->>'id')::uuid, x->>'contentHash', x->>'solution', (x->>'reviewed')::boolean,
    x->>'reviewedBy'
  FROM jsonb_array_elements($1::jsonb) x
  ON CONFLICT (id) DO NOTHING`;

/** $1 cursor, $2 limit. */
export const pullMarksSql = (s: string) => `
  SELECT seq, id, member, content_hash, solution, reviewed, reviewed_by FROM ${s}.marks
  WHERE seq > $1 ORDER BY seq LIMIT $2`;
