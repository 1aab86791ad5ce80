/**
 * The claim (issue 26 §2) as one SECURITY DEFINER function, the pattern of hub-admin-schema.ts:
 * it runs as the schema's owner, checks the caller once (`session_user`, the role logged in:
 * inside, `current_user` is the owner) is a member, and claims for that caller only. The owner
 * is not subject to the work's row security (the table is not FORCEd), so no policy is evaluated
 * per row, and annotators need no right to read the scheduling columns (slot, shared,
 * assignments) the claim decides on. `search_path` is pinned (pg_catalog, then pg_temp last) so
 * no object of the caller's stands in for a built-in; EXECUTE is the members' (grantWorkSql),
 * never PUBLIC's.
 *
 * One statement per claim: the member's assignments, the open pool and slots whose lease ended (a
 * desktop that went away) are each taken by priority with SKIP LOCKED, and at most one slot per
 * file is kept; an ended lease is simply claimable, never handed back first.
 */

/** The functions a member may execute to claim (granted with their other rights). */
export const CLAIM_FUNCTIONS = (s: string) => `${s}.claim_work(integer)`;

export const claimFunctionSql = (s: string) => `
  -- Before issue 26's definer claim: a check of current_user, callable by anyone.
  DROP FUNCTION IF EXISTS ${s}.first_open_slot(text, integer);

  -- A claim takes one slot per file (its lowest open one), and none of a file the member holds
  -- (another slot) or reviewed: a file wanted twice goes to two distinct members.
  CREATE OR REPLACE FUNCTION ${s}.first_open_slot(p_hash text, p_slot integer, p_member name)
    RETURNS boolean LANGUAGE sql STABLE AS $$
      SELECT NOT EXISTS (SELECT 1 FROM ${s}.work o WHERE o.content_hash = p_hash
        AND o.slot <> p_slot
        AND (o.holder = p_member OR (o.slot < p_slot AND o.holder IS NULL AND NOT o.done))) $$;

  -- The former claim_work (SECURITY INVOKER) is replaced in place: same signature.
  CREATE OR REPLACE FUNCTION ${s}.claim_work(want integer)
    RETURNS TABLE (claimed_hash text, claimed_slot integer, claimed_until timestamptz)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    -- One plan for every call: a custom plan per call cost more planning (~0.8 ms) than the
    -- claim itself; the generic one walks the same partial indexes (LIMIT and member as parameters).
    SET plan_cache_mode = force_generic_plan AS $$
    DECLARE
      me name := session_user;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM ${s}.members WHERE role_name = me) THEN
        RAISE EXCEPTION 'not a member of this project' USING ERRCODE = 'insufficient_privilege';
      END IF;
      -- Rank 0: what the lead assigned to this member; rank 1: the pool; each by priority.
      RETURN QUERY WITH assigned AS (
          SELECT w.content_hash, w.slot, w.priority, 0 AS rank FROM ${s}.work w
          WHERE w.holder IS NULL AND NOT w.done AND w.assigned_to = me
            AND (NOT w.shared OR ${s}.first_open_slot(w.content_hash, w.slot, me))
          ORDER BY w.priority DESC, w.content_hash, w.slot
          LIMIT want FOR UPDATE OF w SKIP LOCKED),
        pool AS (
          SELECT w.content_hash, w.slot, w.priority, 1 AS rank FROM ${s}.work w
          WHERE w.holder IS NULL AND NOT w.done AND w.assigned_to IS NULL
            AND (NOT w.shared OR ${s}.first_open_slot(w.content_hash, w.slot, me))
          ORDER BY w.priority DESC, w.content_hash, w.slot
          LIMIT want FOR UPDATE OF w SKIP LOCKED),
        ended AS (
          SELECT w.content_hash, w.slot, w.priority,
            CASE WHEN w.assigned_to IS NULL THEN 1 ELSE 0 END AS rank FROM ${s}.work w
          WHERE w.holder IS NOT NULL AND NOT w.done AND w.lease_until < now()
            AND (w.assigned_to IS NULL OR w.assigned_to = me)
            AND (NOT w.shared OR NOT EXISTS (SELECT 1 FROM ${s}.work o
              WHERE o.content_hash = w.content_hash AND o.slot <> w.slot AND o.holder = me))
          -- The longest ended first, in the order of the leases' index (work_leases): ordered by
          -- priority, the planner walks every held slot to find the few ended ones.
          ORDER BY w.lease_until
          LIMIT want FOR UPDATE OF w SKIP LOCKED),
        one_per_file AS (
          SELECT DISTINCT ON (c.content_hash) c.* FROM (
            SELECT * FROM assigned UNION ALL SELECT * FROM pool UNION ALL SELECT * FROM ended) c
          ORDER BY c.content_hash, c.rank, c.slot),
        pick AS (SELECT * FROM one_per_file p
          ORDER BY p.rank, p.priority DESC, p.content_hash LIMIT want)
        UPDATE ${s}.work w SET holder = me,
          lease_until = now() + (SELECT ${s}.lease_interval())
        FROM pick WHERE w.content_hash = pick.content_hash AND w.slot = pick.slot
        RETURNING w.content_hash, w.slot, w.lease_until;
    END $$;
  REVOKE ALL ON FUNCTION ${CLAIM_FUNCTIONS(s)}, ${s}.first_open_slot(text, integer, name)
    FROM PUBLIC;`;
