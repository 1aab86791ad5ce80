/**
 * Which changes are hidden from whom, kept as rows instead of asked of a function (issue 26 §3).
 * A row-security policy runs with the reader's rights, so the former policy called functions any
 * member could also call by hand (with psql) on any file: the list of honeypots, whether a file
 * is blind. Here `quality_hidden` lists the changes of blind files (an open overlap file or a
 * honeypot) by their `seq`, kept current by triggers that run as the schema's owner: when a change
 * arrives, and when a honeypot, a settlement or the overlap share changes, whatever the order
 * (a honeypot marked after its truth was pushed hides that truth from then on, as one marked
 * before). A member reads only the `seq` of *others'* changes (no file, no member); the policy on
 * the log hides those changes. Nobody but the owner's triggers writes it, and the functions that
 * answer for any file are no longer PUBLIC's (leads keep them: work splits and reports use them).
 */
import { quoteLiteral } from './hub-schema.js';

/** Set (SET LOCAL … = 'on') by a lead's transaction that reads every member's blind changes. */
export const QUALITY_READ = 'labeldesk.quality_read';

/**
 * Stamped on `quality_hidden`; another stamp means apply the DDL and every member's grants
 * (again). 3: annotators no longer read the overlap share while it is on.
 */
export const HIDDEN_SCHEMA_VERSION = 'labeldesk quality hidden 3';

/** Functions that say of any file whether it is blind or a honeypot: leads' only. */
export const ORACLES = (s: string) =>
  `${s}.quality_blind(text), ${s}.quality_honeypot_hashes(), ${s}.quality_any_blind(),
   ${s}.quality_wanted_reviews(text)`;

/**
 * The hidden rows of the changes in `changes` (a relation with seq, member, payload) whose file
 * is blind now, set-based (quality_blind per row made setting the overlap 9 s over 50,000).
 */
const hiddenRows = (s: string, changes: string) => `
  WITH q AS (SELECT overlap_share AS share FROM ${s}.quality_settings),
    hs AS (SELECT DISTINCT c.payload->>'contentHash' AS h FROM ${changes} c),
    blind AS (SELECT hs.h FROM hs, q
      WHERE EXISTS (SELECT 1 FROM ${s}.quality_honeypots hp WHERE hp.content_hash = hs.h)
        OR (q.share > 0 AND ${s}.quality_bucket(hs.h) < q.share
          AND NOT EXISTS (SELECT 1 FROM ${s}.quality_settlements st WHERE st.content_hash = hs.h)))
  SELECT c.seq, c.member, c.payload->>'contentHash' FROM ${changes} c
    JOIN blind b ON b.h = c.payload->>'contentHash'`;

/** The DDL (idempotent, one transaction, by the schema's owner); `s` is the quoted schema. */
export function hiddenSchemaSql(s: string): string {
  return `
  CREATE TABLE IF NOT EXISTS ${s}.quality_hidden (
    seq bigint PRIMARY KEY,
    member name NOT NULL,
    content_hash text NOT NULL
  );
  CREATE INDEX IF NOT EXISTS quality_hidden_content ON ${s}.quality_hidden (content_hash);
  CREATE INDEX IF NOT EXISTS changes_content ON ${s}.changes ((payload->>'contentHash'));
  ALTER TABLE ${s}.quality_hidden ENABLE ROW LEVEL SECURITY;
  DROP POLICY IF EXISTS others_only ON ${s}.quality_hidden;
  CREATE POLICY others_only ON ${s}.quality_hidden FOR SELECT
    USING (member <> current_user AND (SELECT ${s}.is_member()));

  -- The hidden rows of these files, made again from the log (as the owner).
  CREATE OR REPLACE FUNCTION ${s}.quality_hide_files(hs text[]) RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      DELETE FROM ${s}.quality_hidden WHERE content_hash = ANY(hs);
      INSERT INTO ${s}.quality_hidden (seq, member, content_hash)
        ${hiddenRows(s, `(SELECT * FROM ${s}.changes WHERE payload->>'contentHash' = ANY(hs))`)};
    END $$;
  CREATE OR REPLACE FUNCTION ${s}.quality_hide_all() RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      DELETE FROM ${s}.quality_hidden;
      IF ${s}.quality_any_blind() THEN
        INSERT INTO ${s}.quality_hidden (seq, member, content_hash) ${hiddenRows(s, `${s}.changes`)};
      END IF;
    END $$;

  CREATE OR REPLACE FUNCTION ${s}.quality_hidden_changes() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      IF ${s}.quality_any_blind() THEN
        INSERT INTO ${s}.quality_hidden (seq, member, content_hash) ${hiddenRows(s, 'added')}
          ON CONFLICT (seq) DO NOTHING;
      END IF;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER quality_hidden_changes AFTER INSERT ON ${s}.changes
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT
    EXECUTE FUNCTION ${s}.quality_hidden_changes();

  CREATE OR REPLACE FUNCTION ${s}.quality_hidden_files() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM ${s}.quality_hide_files(ARRAY[OLD.content_hash]);
      ELSE
        PERFORM ${s}.quality_hide_files(ARRAY[NEW.content_hash]
          || CASE WHEN TG_OP = 'UPDATE' THEN ARRAY[OLD.content_hash] ELSE '{}' END);
      END IF;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER quality_hidden_honeypots
    AFTER INSERT OR UPDATE OF content_hash OR DELETE ON ${s}.quality_honeypots
    FOR EACH ROW EXECUTE FUNCTION ${s}.quality_hidden_files();
  CREATE OR REPLACE TRIGGER quality_hidden_settlements
    AFTER INSERT OR UPDATE OR DELETE ON ${s}.quality_settlements
    FOR EACH ROW EXECUTE FUNCTION ${s}.quality_hidden_files();

  CREATE OR REPLACE FUNCTION ${s}.quality_hidden_share() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN PERFORM ${s}.quality_hide_all(); RETURN NULL; END $$;
  CREATE OR REPLACE TRIGGER quality_hidden_share AFTER UPDATE OF overlap_share
    ON ${s}.quality_settings FOR EACH STATEMENT EXECUTE FUNCTION ${s}.quality_hidden_share();

  -- Annotators read the settings while the overlap is off only: the share would name, with the
  -- md5 bucket rule, the files reviewed blind (leads read them through leads_write).
  DROP POLICY IF EXISTS members_read ON ${s}.quality_settings;
  CREATE POLICY members_read ON ${s}.quality_settings FOR SELECT
    USING (overlap_share = 0 AND (SELECT ${s}.is_member()));

  -- The log's policy reads the rows (one index probe per change), no function of a file.
  DROP POLICY IF EXISTS quality_blind ON ${s}.changes;
  CREATE POLICY quality_blind ON ${s}.changes AS RESTRICTIVE FOR SELECT
    USING (member = current_user
      OR NOT EXISTS (SELECT 1 FROM ${s}.quality_hidden h WHERE h.seq = changes.seq)
      OR (SELECT ${s}.quality_is_lead() AND current_setting('${QUALITY_READ}', true) = 'on'));

  REVOKE ALL ON FUNCTION ${ORACLES(s)}, ${s}.quality_hide_files(text[]), ${s}.quality_hide_all()
    FROM PUBLIC;
  SELECT ${s}.quality_hide_all();
  COMMENT ON TABLE ${s}.quality_hidden IS ${quoteLiteral(HIDDEN_SCHEMA_VERSION)};`;
}
