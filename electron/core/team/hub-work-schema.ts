/**
 * Work without collisions (issue 26 §1–§2), in the hub. Every project file has one row in
 * `work_files` (how many distinct members should review it, `wanted_reviews`, default 1, and its
 * review priority) and that many slots in `work`. A slot is open, held by one member under a lease
 * (`holder`, `lease_until`, the server's clock), or done (`holder` reviewed it, at `done_at`). A
 * member never holds or reviews two slots of one file (a unique index), so a file goes to up to
 * `wanted_reviews` distinct members. `work_reviews` lists who reviewed what.
 *
 * Roles are the database's: the lead (and members added as leads) change settings, assignments,
 * `wanted_reviews` and anyone's leases; an annotator may only take open slots (or slots whose
 * lease ended, or assigned to them), renew and release their own, and finish them. A change that
 * settles a conflict (two or more parents) is refused from an annotator none of whose changes is
 * among its parents: settling others' disagreements is the lead's (README "Working as a team").
 *
 * Idempotent: applied when the lead creates, joins or syncs a project, so older hubs grow it.
 */
import { quoteIdent, quoteLiteral } from './hub-schema.js';
import { CLAIM_FUNCTIONS, claimFunctionSql } from './hub-work-claim-schema.js';

/** Stamped on `work` once the DDL below is applied; another stamp means apply it (again). */
export const WORK_SCHEMA_VERSION = 'labeldesk work 5';

/** Default lease: 30 minutes without renewal and a member's claim returns to the pool. */
export const DEFAULT_LEASE_SECONDS = 1800;

/**
 * Review priority the hub can know without anyone's desktop (a documented proxy of the
 * desktop's): uncertain boxes (model score between 0.25 and 0.75) first, then most boxes.
 */
const answerPriority = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.answer_priority(answer jsonb) RETURNS double precision
    LANGUAGE sql IMMUTABLE AS $$
      SELECT coalesce(sum(CASE WHEN (d->>'score')::float8 BETWEEN 0.25 AND 0.75 THEN 1000 ELSE 0 END
        + 1), 0)::float8
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(answer->'detections') = 'array'
        THEN answer->'detections' ELSE '[]'::jsonb END) d $$;`;

/** Runs `statement` only in a hub that has the review marks' table (older ones get it later). */
const whenMarks = (s: string, statement: string) => `
  DO $do$ BEGIN
    IF to_regclass('${s.replaceAll("'", "''")}.marks') IS NOT NULL THEN ${statement} END IF;
  END $do$;`;

/** Tables, indexes and row security of the work (before any trigger that fills them). */
const workTables = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.is_lead() RETURNS boolean LANGUAGE sql STABLE AS
    $$ SELECT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = current_user AND role = 'lead') $$;
  CREATE TABLE IF NOT EXISTS ${s}.work_files (
    content_hash text PRIMARY KEY,
    wanted_reviews integer NOT NULL DEFAULT 1 CHECK (wanted_reviews BETWEEN 1 AND 50),
    priority double precision NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS ${s}.work (
    content_hash text NOT NULL,
    slot integer NOT NULL CHECK (slot >= 1),
    priority double precision NOT NULL DEFAULT 0,
    -- More than one slot of this file: claims then check the member has none of the others.
    shared boolean NOT NULL DEFAULT false,
    assigned_to name,
    holder name,
    lease_until timestamptz,
    done boolean NOT NULL DEFAULT false,
    done_at timestamptz,
    PRIMARY KEY (content_hash, slot),
    CHECK (holder IS NOT NULL OR NOT done)
  );
  -- One slot of a file per member; led by the holder, it also finds a member's slots (it was
  -- (content_hash, holder) beside an index on holder: one index less to write per claimed slot).
  CREATE UNIQUE INDEX IF NOT EXISTS work_member_slots ON ${s}.work (holder, content_hash);
  DROP INDEX IF EXISTS ${s}.work_one_slot_per_member;
  DROP INDEX IF EXISTS ${s}.work_held;
  CREATE INDEX IF NOT EXISTS work_open ON ${s}.work (priority DESC, content_hash, slot)
    WHERE holder IS NULL AND NOT done AND assigned_to IS NULL;
  CREATE INDEX IF NOT EXISTS work_open_assigned
    ON ${s}.work (assigned_to, priority DESC, content_hash, slot)
    WHERE holder IS NULL AND NOT done AND assigned_to IS NOT NULL;
  CREATE INDEX IF NOT EXISTS work_leases ON ${s}.work (lease_until)
    WHERE holder IS NOT NULL AND NOT done;
  CREATE OR REPLACE VIEW ${s}.work_reviews WITH (security_invoker = true) AS
    SELECT content_hash, holder AS member, done_at AS at FROM ${s}.work WHERE done;

  -- Policies call the role checks as sub-selects: evaluated once per statement, not per row.
  -- Not FORCEd: the owner (claim_work, the triggers) is a lead and reads every row anyway, without
  -- a policy evaluated per row.
  ALTER TABLE ${s}.work ENABLE ROW LEVEL SECURITY;
  ALTER TABLE ${s}.work NO FORCE ROW LEVEL SECURITY;
  -- An annotator sees their own slots and the first slot of an open file, nothing else: a file
  -- wanted by two members (overlap) or by all (honeypot) looks like any other file.
  -- A claim reads its files' paths: the check once per statement (older hubs checked each row).
  ALTER POLICY members_read ON ${s}.files USING ((SELECT ${s}.is_member()));
  DROP POLICY IF EXISTS members_read ON ${s}.work;
  CREATE POLICY members_read ON ${s}.work FOR SELECT USING ((SELECT ${s}.is_member())
    AND (holder = current_user OR (holder IS NULL AND NOT done AND slot = 1)));
  DROP POLICY IF EXISTS lead_all ON ${s}.work;
  CREATE POLICY lead_all ON ${s}.work FOR ALL USING ((SELECT ${s}.is_lead())) WITH CHECK ((SELECT ${s}.is_lead()));
  -- An annotator touches their own slots and the ones they see open (claims, and slots whose
  -- lease ended, are claim_work's); and leaves a slot theirs or open, never done under another
  -- name, never on another member's assignment.
  DROP POLICY IF EXISTS annotator_own ON ${s}.work;
  CREATE POLICY annotator_own ON ${s}.work FOR UPDATE
    USING ((SELECT ${s}.is_member()) AND (holder = current_user
      OR (holder IS NULL AND NOT done AND slot = 1)))
    WITH CHECK ((SELECT ${s}.is_member()) AND (holder = current_user OR (holder IS NULL AND NOT done))
      AND (assigned_to IS NULL OR assigned_to = current_user));`;

/** Slots follow `work_files`: created for new files, added or trimmed with `wanted_reviews`. */
const workTriggers = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.work_files_added() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      INSERT INTO ${s}.work_files (content_hash, priority)
        SELECT n.content_hash, coalesce((SELECT max(${s}.answer_priority(a.answer))
          FROM ${s}.answers a WHERE a.content_hash = n.content_hash), 0)
        FROM added n ON CONFLICT (content_hash) DO NOTHING;
      -- Overlap files and honeypots want more reviews (hub-quality-schema.ts), when it is there.
      IF to_regprocedure('${s}.quality_wanted_reviews(text)') IS NOT NULL THEN
        UPDATE ${s}.work_files w
           SET wanted_reviews = least(50, ${s}.quality_wanted_reviews(w.content_hash))
         WHERE w.content_hash IN (SELECT content_hash FROM added)
           AND w.wanted_reviews <> least(50, ${s}.quality_wanted_reviews(w.content_hash));
      END IF;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER work_files_added AFTER INSERT ON ${s}.files
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${s}.work_files_added();

  CREATE OR REPLACE FUNCTION ${s}.work_slots_added() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      INSERT INTO ${s}.work (content_hash, slot, priority, shared)
        SELECT n.content_hash, g, n.priority, n.wanted_reviews > 1
        FROM added n, generate_series(1, n.wanted_reviews) g
        ON CONFLICT (content_hash, slot) DO NOTHING;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER work_slots_added AFTER INSERT ON ${s}.work_files
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${s}.work_slots_added();

  -- Fewer wanted reviews drop open slots only: nobody's held or finished work is lost.
  CREATE OR REPLACE FUNCTION ${s}.work_slots_changed() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      INSERT INTO ${s}.work (content_hash, slot, priority)
        SELECT NEW.content_hash, g, NEW.priority FROM generate_series(1, NEW.wanted_reviews) g
        ON CONFLICT (content_hash, slot) DO NOTHING;
      DELETE FROM ${s}.work WHERE content_hash = NEW.content_hash AND slot > NEW.wanted_reviews
        AND holder IS NULL AND NOT done;
      UPDATE ${s}.work SET shared = (SELECT count(*) > 1 FROM ${s}.work x
          WHERE x.content_hash = NEW.content_hash)
        WHERE content_hash = NEW.content_hash;
      IF NEW.priority IS DISTINCT FROM OLD.priority THEN
        UPDATE ${s}.work SET priority = NEW.priority WHERE content_hash = NEW.content_hash;
      END IF;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER work_slots_changed AFTER UPDATE ON ${s}.work_files
    FOR EACH ROW EXECUTE FUNCTION ${s}.work_slots_changed();

  -- A model answer shared later raises its file's priority (answer_priority).
  CREATE OR REPLACE FUNCTION ${s}.work_answers_added() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      UPDATE ${s}.work_files f SET priority = p.priority
        FROM (SELECT content_hash, max(${s}.answer_priority(answer)) AS priority FROM added
          GROUP BY content_hash) p
        WHERE f.content_hash = p.content_hash AND f.priority < p.priority;
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER work_answers_added AFTER INSERT ON ${s}.answers
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${s}.work_answers_added();`;

/** Leases from the project's settings; the claim itself is hub-work-claim-schema.ts's. */
const workFunctions = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.lease_interval() RETURNS interval LANGUAGE sql STABLE AS $$
    SELECT coalesce((settings->>'leaseSeconds')::integer, ${DEFAULT_LEASE_SECONDS})
      * interval '1 second' FROM ${s}.project $$;
  ${claimFunctionSql(s)}`;

/**
 * A file a member declares reviewed (a person's mark) finishes their slot of it, or takes an
 * open one, so a review outside a claim still counts once and frees nobody else's work.
 */
const marksFinishWork = (s: string) => `
  -- As the owner: the open slot it takes may be one the member cannot see (row security).
  CREATE OR REPLACE FUNCTION ${s}.work_marked() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    BEGIN
      IF NOT NEW.reviewed OR NEW.reviewed_by IS DISTINCT FROM 'person' THEN RETURN NULL; END IF;
      UPDATE ${s}.work SET done = true, done_at = NEW.at, lease_until = NULL
        WHERE content_hash = NEW.content_hash AND holder = NEW.member AND NOT done;
      IF NOT FOUND AND NOT EXISTS (SELECT 1 FROM ${s}.work
          WHERE content_hash = NEW.content_hash AND holder = NEW.member) THEN
        UPDATE ${s}.work w SET holder = NEW.member, done = true, done_at = NEW.at,
          lease_until = NULL
        FROM (SELECT content_hash, slot FROM ${s}.work
          WHERE content_hash = NEW.content_hash AND NOT done
            AND (holder IS NULL OR lease_until < now())
            AND (assigned_to IS NULL OR assigned_to = NEW.member)
          ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED) x
        WHERE w.content_hash = x.content_hash AND w.slot = x.slot;
      END IF;
      RETURN NULL;
    END $$;
  ${whenMarks(
    s,
    `CREATE OR REPLACE TRIGGER work_marked AFTER INSERT ON ${s}.marks
    FOR EACH ROW EXECUTE FUNCTION ${s}.work_marked();`,
  )}`;

/** A member's pushed changes or marks are work: their live leases are renewed (idle ends them). */
const activityRenews = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.work_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ${s}.work SET lease_until = now() + ${s}.lease_interval()
        WHERE holder = current_user AND NOT done AND lease_until > now();
      RETURN NULL;
    END $$;
  CREATE OR REPLACE TRIGGER work_activity AFTER INSERT ON ${s}.changes
    FOR EACH STATEMENT EXECUTE FUNCTION ${s}.work_activity();
  ${whenMarks(
    s,
    `CREATE OR REPLACE TRIGGER work_activity AFTER INSERT ON ${s}.marks
    FOR EACH STATEMENT EXECUTE FUNCTION ${s}.work_activity();`,
  )}`;

/** Settling a conflict is a change with several parents: the lead's, or a member's own box's. */
const settleRule = (s: string) => `
  CREATE OR REPLACE FUNCTION ${s}.changes_settle_check() RETURNS trigger LANGUAGE plpgsql
    VOLATILE AS $$
    BEGIN
      IF ${s}.is_lead() OR EXISTS (SELECT 1 FROM ${s}.changes c
          WHERE c.member = current_user AND c.id::text IN
            (SELECT jsonb_array_elements_text(NEW.payload->'parents'))) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'settling a conflict between other members is the lead''s'
        USING ERRCODE = 'insufficient_privilege';
    END $$;
  CREATE OR REPLACE TRIGGER changes_settle_check BEFORE INSERT ON ${s}.changes FOR EACH ROW
    WHEN (CASE WHEN jsonb_typeof(NEW.payload->'parents') = 'array'
      THEN jsonb_array_length(NEW.payload->'parents') > 1 ELSE false END)
    EXECUTE FUNCTION ${s}.changes_settle_check();`;

/** Files (and a person's reviews) the hub had before it had work: slots and done slots. */
const backfill = (s: string) => `
  INSERT INTO ${s}.work_files (content_hash, priority)
    SELECT f.content_hash, coalesce((SELECT max(${s}.answer_priority(a.answer))
      FROM ${s}.answers a WHERE a.content_hash = f.content_hash), 0)
    FROM ${s}.files f ON CONFLICT (content_hash) DO NOTHING;
  ${whenMarks(
    s,
    `UPDATE ${s}.work w SET holder = m.member, done = true, done_at = m.at
    FROM (SELECT DISTINCT ON (content_hash) content_hash, member, at, reviewed, reviewed_by
      FROM ${s}.marks ORDER BY content_hash, seq DESC) m
    WHERE w.content_hash = m.content_hash AND w.slot = 1 AND w.holder IS NULL
      AND m.reviewed AND m.reviewed_by = 'person';`,
  )}`;

/** The whole DDL (one transaction, by the schema's owner); `s` quoted, `schema` bare. */
export function workSchemaSql(schema: string): string {
  const s = quoteIdent(schema);
  return [
    answerPriority(s),
    workTables(s),
    workTriggers(s),
    workFunctions(s),
    marksFinishWork(s),
    settleRule(s),
    activityRenews(s),
    backfill(s),
    `COMMENT ON TABLE ${s}.work IS ${quoteLiteral(WORK_SCHEMA_VERSION)};`,
  ].join('\n');
}

/**
 * A member's rights on the work: a lead reads and writes all of it, assigns, changes wanted
 * reviews and the project's settings; an annotator claims (claim_work), reads the columns of
 * their own slots (no slot number, no sharing, no assignment: nothing that tells an overlap file
 * or a honeypot from another) and moves them (holder, lease, done). Granting again with another
 * role replaces the former rights.
 */
export function grantWorkSql(schema: string, role: string, memberRole: 'lead' | 'annotator') {
  const s = quoteIdent(schema);
  const r = quoteIdent(role);
  const read =
    memberRole === 'lead'
      ? `GRANT SELECT ON ${s}.work, ${s}.work_files TO ${r};
         GRANT INSERT, UPDATE, DELETE ON ${s}.work, ${s}.work_files TO ${r};
         GRANT UPDATE (settings) ON ${s}.project TO ${r};`
      : `GRANT SELECT (content_hash, priority, holder, lease_until, done, done_at) ON ${s}.work TO ${r};`;
  return `
    REVOKE ALL ON ${s}.work, ${s}.work_files, ${s}.work_reviews FROM ${r};
    REVOKE UPDATE ON ${s}.project FROM ${r};
    GRANT SELECT ON ${s}.work_reviews TO ${r};
    GRANT UPDATE (holder, lease_until, done, done_at) ON ${s}.work TO ${r};
    GRANT EXECUTE ON FUNCTION ${CLAIM_FUNCTIONS(s)} TO ${r};
    ${read}`;
}
