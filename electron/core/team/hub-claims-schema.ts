/**
 * Claims on content in the hub: before a run sends a file of a team project, it claims the
 * file's content for the solution and service (one row per content, solution and service). A
 * claim names its holder (a member's role, set by the database) and its run, and expires unless
 * its run renews it: a run killed mid-way frees its files for another member after the expiry.
 * Expiry is the server's clock (`now()`), so desktops' clocks never decide who holds a file.
 */
import { quoteIdent } from './hub-schema.js';

/** The table and its row security (part of a new project's DDL; `s` is the quoted schema). */
export function claimsTableSql(s: string): string {
  return `
    CREATE TABLE ${s}.claims (
      content_hash text NOT NULL,
      solution text NOT NULL,
      service text NOT NULL,
      holder name NOT NULL DEFAULT current_user,
      run uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (content_hash, solution, service)
    );
    ALTER TABLE ${s}.claims ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.claims FORCE ROW LEVEL SECURITY;
    CREATE POLICY members_read ON ${s}.claims FOR SELECT USING (${s}.is_member());
    CREATE POLICY members_claim_own ON ${s}.claims FOR INSERT
      WITH CHECK (holder = current_user AND ${s}.is_member());
    -- A member renews their own claims and takes over expired ones, always under their own name.
    CREATE POLICY members_take ON ${s}.claims FOR UPDATE
      USING (${s}.is_member() AND (holder = current_user OR expires_at < now()))
      WITH CHECK (holder = current_user AND ${s}.is_member());
    CREATE POLICY members_release_own ON ${s}.claims FOR DELETE
      USING (holder = current_user AND ${s}.is_member());`;
}

/** A member's rights on the claims (appended to the member's grants). */
export function grantClaimsSql(schema: string, role: string): string {
  return `GRANT SELECT, INSERT, UPDATE, DELETE ON ${quoteIdent(schema)}.claims TO ${quoteIdent(role)};`;
}

/**
 * One round trip per batch: the team's answers for these contents (this solution and service),
 * and claims on the others, taken where nobody holds a live one (or this run already does).
 * $1 hashes, $2 solution, $3 service, $4 run id, $5 claim time-to-live in ms.
 */
export const takeOrClaimSql = (s: string) => `
  WITH want AS (SELECT DISTINCT unnest($1::text[]) AS h),
  answered AS (
    SELECT DISTINCT ON (a.content_hash) a.content_hash, a.answer, a.paid_by
    FROM ${s}.answers a JOIN want ON a.content_hash = want.h
    WHERE a.solution = $2 AND a.service = $3
    ORDER BY a.content_hash, a.added_at),
  claimed AS (
    INSERT INTO ${s}.claims (content_hash, solution, service, run, expires_at)
    SELECT h, $2, $3, $4::uuid, now() + $5::integer * interval '1 millisecond' FROM want
    WHERE h NOT IN (SELECT content_hash FROM answered)
    ON CONFLICT (content_hash, solution, service) DO UPDATE
      SET holder = current_user, run = excluded.run, expires_at = excluded.expires_at
      WHERE ${s}.claims.expires_at < now() OR ${s}.claims.run = excluded.run
    RETURNING content_hash)
  SELECT content_hash, 'answer' AS state, answer, paid_by AS who, NULL::timestamptz AS until
    FROM answered
  UNION ALL SELECT content_hash, 'claimed', NULL, current_user, NULL FROM claimed
  UNION ALL SELECT c.content_hash, 'held', NULL, c.holder, c.expires_at
    FROM ${s}.claims c JOIN want ON c.content_hash = want.h
    WHERE c.solution = $2 AND c.service = $3
      AND c.content_hash NOT IN (SELECT content_hash FROM answered)
      AND c.content_hash NOT IN (SELECT content_hash FROM claimed)`;

/** Extends every live claim of a run ($1 run, $2 ttl ms); returns how many it still holds. */
export const renewClaimsSql = (s: string) => `
  UPDATE ${s}.claims SET expires_at = now() + $2::integer * interval '1 millisecond'
  WHERE run = $1::uuid AND holder = current_user`;

/** Frees a run's claims on these contents ($1 run, $2 hashes, $3 solution, $4 service). */
export const releaseClaimsSql = (s: string) => `
  DELETE FROM ${s}.claims
  WHERE run = $1::uuid AND holder = current_user AND content_hash = ANY($2::text[])
    AND solution = $3 AND service = $4`;

/** What a run claims: contents for one solution at one service, for this run, for a while. */
export interface ClaimTarget {
  solution: string;
  service: string;
  /** The run's id (a UUID): its claims are renewed and released together. */
  run: string;
  ttlMs: number;
}
