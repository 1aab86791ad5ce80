/**
 * How good the team's labels are (README "Working as a team", Overlap and honeypots): the lead's
 * quality settings, honeypot files with known labels, and settled overlap files. Applied
 * idempotently on create, join and sync (an older hub is upgraded by its schema's owner).
 *
 * Blind double review is the database's: a restrictive row-security policy on the change log
 * hides from every member the others' changes of a *blind* file (an overlap file not yet settled,
 * or a honeypot), so no desktop pulls and applies them, the lead's included; a lead reads them for
 * a report or a settlement only, in a transaction that says so (QUALITY_READ). Only leads write
 * these tables (grants, and policies for a lead demoted later); annotators never read the
 * honeypots.
 */
import { quoteIdent } from './hub-schema.js';
import { hiddenSchemaSql, ORACLES, QUALITY_READ } from './hub-quality-hidden-schema.js';

export { HIDDEN_SCHEMA_VERSION, QUALITY_READ } from './hub-quality-hidden-schema.js';

/**
 * Where a content falls in [0, 1), the same on every desktop and in the hub: the first 32 bits
 * of the md5 of its hash. A file is an overlap file when this is under the lead's share.
 */
const bucket = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.quality_bucket(h text) RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT ('x' || substr(md5(h), 1, 8))::bit(32)::bigint / 4294967296.0 $$;`;

/** The DDL (idempotent); `s` is the quoted schema. */
export function qualityTablesSql(s: string): string {
  return `
    CREATE OR REPLACE FUNCTION ${s}.quality_is_lead() RETURNS boolean LANGUAGE sql STABLE AS
      $$ SELECT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = current_user AND role = 'lead') $$;
    ${bucket(s)}
    CREATE TABLE IF NOT EXISTS ${s}.quality_settings (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      overlap_share double precision NOT NULL DEFAULT 0 CHECK (overlap_share BETWEEN 0 AND 1),
      set_by name NOT NULL DEFAULT current_user,
      set_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO ${s}.quality_settings (one) VALUES (true) ON CONFLICT DO NOTHING;
    -- A honeypot's known labels: [{solution, frameIndex, label, bbox}], the lead's version of it.
    CREATE TABLE IF NOT EXISTS ${s}.quality_honeypots (
      content_hash text PRIMARY KEY,
      truth jsonb NOT NULL DEFAULT '[]',
      added_by name NOT NULL DEFAULT current_user,
      added_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS ${s}.quality_settlements (
      content_hash text PRIMARY KEY,
      kept_member name NOT NULL,
      settled_by name NOT NULL DEFAULT current_user,
      settled_at timestamptz NOT NULL DEFAULT now()
    );

    -- Runs as the schema's owner (it reads the honeypots, which annotators cannot).
    CREATE OR REPLACE FUNCTION ${s}.quality_blind(h text) RETURNS boolean
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
        SELECT EXISTS (SELECT 1 FROM ${s}.quality_honeypots WHERE content_hash = h)
          OR (${s}.quality_bucket(h) < (SELECT overlap_share FROM ${s}.quality_settings)
            AND NOT EXISTS (SELECT 1 FROM ${s}.quality_settlements WHERE content_hash = h)) $$;
    -- Whether anything is blind at all: checked once per query, so a project without overlap or
    -- honeypots reads its log as fast as before.
    CREATE OR REPLACE FUNCTION ${s}.quality_any_blind() RETURNS boolean
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
        SELECT EXISTS (SELECT 1 FROM ${s}.quality_honeypots)
          OR (SELECT overlap_share > 0 FROM ${s}.quality_settings) $$;
    -- The honeypots, read once per query by the policy (a per-row call of a function like
    -- quality_blind made an annotator's pull 3× slower at a 10 % overlap).
    CREATE OR REPLACE FUNCTION ${s}.quality_honeypot_hashes() RETURNS text[]
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
        SELECT coalesce(array_agg(content_hash), '{}') FROM ${s}.quality_honeypots $$;

    -- How many distinct members a work split hands a file to: every annotator for a honeypot (each
    -- is scored on it), two for an open overlap file, one otherwise (issue 26 §2's claims).
    CREATE OR REPLACE FUNCTION ${s}.quality_wanted_reviews(h text) RETURNS integer
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
        SELECT CASE
          WHEN EXISTS (SELECT 1 FROM ${s}.quality_honeypots WHERE content_hash = h)
            THEN greatest(1, (SELECT count(*) FROM ${s}.members WHERE role = 'annotator'))::integer
          WHEN ${s}.quality_blind(h) THEN 2
          ELSE 1 END $$;

    ALTER TABLE ${s}.quality_settings ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.quality_honeypots ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.quality_settlements ENABLE ROW LEVEL SECURITY;
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = ${literalOf(s)}
          AND tablename = 'changes' AND policyname = 'quality_blind') THEN
        CREATE POLICY members_read ON ${s}.quality_settings FOR SELECT USING (${s}.is_member());
        CREATE POLICY leads_write ON ${s}.quality_settings FOR ALL
          USING (${s}.quality_is_lead()) WITH CHECK (${s}.quality_is_lead());
        CREATE POLICY leads_only ON ${s}.quality_honeypots FOR ALL
          USING (${s}.quality_is_lead()) WITH CHECK (${s}.quality_is_lead());
        CREATE POLICY members_read ON ${s}.quality_settlements FOR SELECT USING (${s}.is_member());
        CREATE POLICY leads_write ON ${s}.quality_settlements FOR ALL
          USING (${s}.quality_is_lead()) WITH CHECK (${s}.quality_is_lead());
        CREATE POLICY quality_blind ON ${s}.changes AS RESTRICTIVE FOR SELECT
          USING (member = current_user OR NOT (SELECT ${s}.quality_any_blind())
            OR (SELECT ${s}.quality_is_lead() AND current_setting('${QUALITY_READ}', true) = 'on')
            OR NOT (payload->>'contentHash' = ANY ((SELECT ${s}.quality_honeypot_hashes())::text[])
              OR (${s}.quality_bucket(payload->>'contentHash')
                  < (SELECT overlap_share FROM ${s}.quality_settings)
                AND NOT EXISTS (SELECT 1 FROM ${s}.quality_settlements st
                  WHERE st.content_hash = payload->>'contentHash'))));
      END IF;
    END $$;
    ${hiddenSchemaSql(s)}`;
}

/** The schema name as a SQL literal, from its quoted identifier. */
function literalOf(quoted: string): string {
  return `'${quoted.slice(1, -1).replaceAll('""', '"').replaceAll("'", "''")}'`;
}

/**
 * A member's rights here: leads write the settings, honeypots and settlements; annotators read
 * the settlements, and the settings only while the overlap is off (settingsPolicy: the share,
 * with the md5 bucket rule, would tell them which files are reviewed blind).
 */
export function grantQualitySql(schema: string, role: string, memberRole: string): string {
  const s = quoteIdent(schema);
  const r = quoteIdent(role);
  const tables = `${s}.quality_settings, ${s}.quality_honeypots, ${s}.quality_settlements`;
  // quality_hidden: the seq of others' hidden changes (no file named), what the log's policy reads.
  return memberRole === 'lead'
    ? `GRANT SELECT, INSERT, UPDATE, DELETE ON ${tables} TO ${r};
       GRANT SELECT (seq) ON ${s}.quality_hidden TO ${r};
       GRANT EXECUTE ON FUNCTION ${ORACLES(s)} TO ${r};`
    : `REVOKE ALL ON ${tables} FROM ${r};
       REVOKE ALL ON FUNCTION ${ORACLES(s)} FROM ${r};
       GRANT SELECT ON ${s}.quality_settings, ${s}.quality_settlements TO ${r};
       GRANT SELECT (seq) ON ${s}.quality_hidden TO ${r};`;
}

/** Whether the tables are there (and as this code makes them), and whether the connecting role owns the schema (may add them). */
export const qualityPresentSql = `
  SELECT to_regclass(quote_ident($1) || '.quality_settlements') IS NOT NULL AS present,
    obj_description(to_regclass(quote_ident($1) || '.quality_hidden'), 'pg_class')
      IS NOT DISTINCT FROM $2 AS current,
    (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1) = current_user AS owner`;
