/**
 * The hub's side of the team's quality (hub-quality-schema.ts): the lead's settings, honeypots
 * and settlements, and what a report reads. Functions over a HubClient's connection, so the
 * client itself stays as it is; every refusal is the database's, turned into a TeamError.
 */
import type postgres from 'postgres';
import type { PulledChange } from '../store/team-types.js';
import type { HubClient } from './hub-client.js';
import {
  grantQualitySql,
  HIDDEN_SCHEMA_VERSION,
  QUALITY_READ,
  qualityPresentSql,
  qualityTablesSql,
} from './hub-quality-schema.js';
import { TeamError, teamErrorOf } from './team-errors.js';
import type { TruthBoxOf } from './member-versions.js';

type Hub = Pick<HubClient, 'use' | 'schema'>;

async function run<T>(hub: Hub, work: (sql: postgres.Sql, s: string) => Promise<T>): Promise<T> {
  try {
    // Through the client, which first chooses the host of a multi-host address (hub-connect.ts).
    return await hub.use(work);
  } catch (err) {
    throw teamErrorOf(err, hub.schema);
  }
}

/**
 * Adds the quality tables to a hub that lacks them (an older project), when this role owns the
 * project's schema; true when they are there afterwards. Another member's desktop leaves an
 * older hub as it is (the lead's next sync upgrades it) and has no quality features meanwhile.
 */
export function ensureQuality(hub: Hub): Promise<boolean> {
  return run(hub, async (sql, s) => {
    const [state] = await sql.unsafe<{ present: boolean; current: boolean; owner: boolean }[]>(
      qualityPresentSql,
      [hub.schema, HIDDEN_SCHEMA_VERSION],
    );
    if (state?.present && state.current) return true;
    // Only the owner adds or renews them (its next sync does, for an older hub).
    if (!state?.owner) return state?.present === true;
    await sql.begin(async (tx) => {
      // Two of the owner's desktops at once: both apply (idempotent), one after the other.
      await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${hub.schema}.quality`]);
      await tx.unsafe(qualityTablesSql(s)).simple();
      const members = await tx.unsafe<{ role_name: string; role: string }[]>(
        `SELECT role_name, role FROM ${s}.members WHERE role_name <> current_user`,
      );
      for (const m of members) {
        await tx.unsafe(grantQualitySql(hub.schema, m.role_name, m.role)).simple();
      }
    });
    return true;
  });
}

/** A member's rights on the quality tables (after `team member add`). */
export function grantQuality(hub: Hub, role: string, memberRole: 'lead' | 'annotator') {
  return run(hub, async (sql) => {
    if (!(await ensureQuality(hub))) return;
    await sql.unsafe(grantQualitySql(hub.schema, role, memberRole)).simple();
  });
}

/** Refused by the database (no grant on the honeypots) for any role but a lead's. */
export function assertLead(hub: Hub): Promise<void> {
  return run(hub, async (sql, s) => {
    await sql.unsafe(`SELECT 1 FROM ${s}.quality_honeypots LIMIT 0`);
  });
}

/** Refused by the database unless the role is a lead. */
export function setOverlapShare(hub: Hub, share: number): Promise<void> {
  return run(hub, async (sql, s) => {
    const r = await sql.unsafe(
      `UPDATE ${s}.quality_settings SET overlap_share = $1, set_by = current_user, set_at = now()`,
      [share],
    );
    // Row security hides the row from a lead no more: say so, as the grants would.
    if (r.count === 0) throw new TeamError('hub_refused', 'Only a lead sets the overlap.');
  });
}

export interface QualitySettings {
  overlapShare: number;
}

export function qualitySettings(hub: Hub): Promise<QualitySettings> {
  return run(hub, async (sql, s) => {
    const [row] = await sql.unsafe<{ overlap_share: number }[]>(
      `SELECT overlap_share FROM ${s}.quality_settings`,
    );
    // Row security shows an annotator the row only while the overlap is off.
    if (!row) {
      throw new TeamError(
        'hub_refused',
        'Only a lead reads the overlap share while some files are reviewed blind.',
      );
    }
    return { overlapShare: row.overlap_share };
  });
}

export interface QualityFile {
  contentHash: string;
  relPath: string;
  overlap: boolean;
  honeypot: boolean;
  settled: { kept: string; by: string } | null;
}

/**
 * The project's overlap files, honeypots and settled files (a lead's read: annotators cannot
 * read the honeypots). This is also what a work split hands to two members instead of one.
 */
export function qualityFiles(hub: Hub): Promise<QualityFile[]> {
  return run(hub, async (sql, s) => {
    const rows = await sql.unsafe<
      {
        content_hash: string;
        rel_path: string;
        overlap: boolean;
        honeypot: boolean;
        kept: string | null;
        by: string | null;
      }[]
    >(
      `SELECT f.content_hash, f.rel_path,
         ${s}.quality_bucket(f.content_hash) < q.overlap_share AND h.content_hash IS NULL AS overlap,
         h.content_hash IS NOT NULL AS honeypot, st.kept_member AS kept, st.settled_by AS by
       FROM ${s}.files f CROSS JOIN ${s}.quality_settings q
       LEFT JOIN ${s}.quality_honeypots h ON h.content_hash = f.content_hash
       LEFT JOIN ${s}.quality_settlements st ON st.content_hash = f.content_hash
       WHERE ${s}.quality_bucket(f.content_hash) < q.overlap_share OR h.content_hash IS NOT NULL
         OR st.content_hash IS NOT NULL
       ORDER BY f.rel_path`,
    );
    return rows.map((r) => ({
      contentHash: r.content_hash,
      relPath: r.rel_path,
      overlap: r.overlap,
      honeypot: r.honeypot,
      settled: r.kept ? { kept: r.kept, by: r.by ?? '' } : null,
    }));
  });
}

/**
 * The coupling to a work split (issue 26 §2): the files to hand to more than one member, and to
 * how many distinct members each (`quality_wanted_reviews` in the hub, which a claim query may
 * call per file instead).
 */
export function wantedReviews(hub: Hub): Promise<Map<string, number>> {
  return run(hub, async (sql, s) => {
    const rows = await sql.unsafe<{ content_hash: string; wanted: number }[]>(
      `SELECT content_hash, wanted FROM (
         SELECT content_hash, ${s}.quality_wanted_reviews(content_hash) AS wanted FROM ${s}.files) w
       WHERE wanted > 1`,
    );
    return new Map(rows.map((r) => [r.content_hash, r.wanted]));
  });
}

/** Marks files as honeypots (their truth follows, once the lead's version is in the hub). */
export function addHoneypots(hub: Hub, contentHashes: readonly string[]): Promise<void> {
  return run(hub, async (sql, s) => {
    await sql.unsafe(
      `INSERT INTO ${s}.quality_honeypots (content_hash) SELECT unnest($1::text[])
       ON CONFLICT (content_hash) DO NOTHING`,
      [contentHashes as string[]],
    );
  });
}

export function setHoneypotTruth(
  hub: Hub,
  contentHash: string,
  truth: readonly TruthBoxOf[],
): Promise<void> {
  return run(hub, async (sql, s) => {
    await sql.unsafe(
      `UPDATE ${s}.quality_honeypots SET truth = $2::jsonb WHERE content_hash = $1`,
      [contentHash, sql.json(truth as unknown as postgres.JSONValue)],
    );
  });
}

export function honeypots(hub: Hub): Promise<{ contentHash: string; truth: TruthBoxOf[] }[]> {
  return run(hub, async (sql, s) => {
    const rows = await sql.unsafe<{ content_hash: string; truth: TruthBoxOf[] }[]>(
      `SELECT content_hash, truth FROM ${s}.quality_honeypots`,
    );
    return rows.map((r) => ({ contentHash: r.content_hash, truth: r.truth }));
  });
}

/** Records a file as settled (refused by the database unless the role is a lead). */
export function recordSettlement(hub: Hub, contentHash: string, kept: string): Promise<void> {
  return run(hub, async (sql, s) => {
    await sql.unsafe(
      `INSERT INTO ${s}.quality_settlements (content_hash, kept_member) VALUES ($1, $2)
       ON CONFLICT (content_hash) DO UPDATE SET kept_member = excluded.kept_member,
         settled_by = current_user, settled_at = now()`,
      [contentHash, kept],
    );
  });
}

/** One change as a report reads it: as a desktop pulls it. */
export type LoggedChange = PulledChange;

/** `work` in a transaction where a lead reads every member's changes of blind files too. */
export async function asLeadsRead<T>(
  sql: postgres.Sql,
  work: (tx: postgres.TransactionSql) => Promise<T>,
): Promise<T> {
  let out: T | undefined;
  await sql.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL ${QUALITY_READ} = 'on'`);
    out = await work(tx);
  });
  return out as T;
}

/**
 * Every change of these contents this role may read, in the hub's order: for a lead, every
 * member's (blind files included: this read says it is a lead's report or settlement).
 */
export function changesOf(hub: Hub, contentHashes: readonly string[]): Promise<LoggedChange[]> {
  return run(hub, async (sql, s) => {
    const rows = await asLeadsRead(sql, (tx) =>
      tx.unsafe<
        {
          seq: string;
          id: string;
          member: string;
          payload: Omit<LoggedChange, 'seq' | 'id' | 'member'>;
        }[]
      >(
        `SELECT seq, id, member, payload FROM ${s}.changes
       WHERE payload->>'contentHash' = ANY($1::text[]) ORDER BY seq`,
        [contentHashes as string[]],
      ),
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      id: r.id,
      member: r.member,
      box: r.payload.box,
      contentHash: r.payload.contentHash,
      solution: r.payload.solution,
      parents: r.payload.parents,
      state: r.payload.state,
      at: r.payload.at,
    }));
  });
}

export interface MemberActivity {
  member: string;
  role: 'lead' | 'annotator';
  boxesChanged: number;
  /** Seconds between a member's consecutive actions, counting only gaps up to IDLE_SECONDS. */
  activeSeconds: number;
  framesSpent: number;
}

/** A pause longer than this is time away, not time working. */
export const IDLE_SECONDS = 300;

/**
 * What each member did, counted in the hub: boxes changed, time active (from when their desktop
 * made each change, and when each review mark reached the hub), and frames of model answers they
 * paid for (an answer without a frame count is one frame: a photo).
 */
export function memberActivity(hub: Hub): Promise<MemberActivity[]> {
  return run(hub, async (sql, s) => {
    const rows = await asLeadsRead(sql, (tx) =>
      tx.unsafe<
        { member: string; role: string; boxes: string; active: number | null; frames: string }[]
      >(
        `WITH acts AS (
         SELECT member, to_timestamp((payload->>'at')::double precision / 1000) AS at
           FROM ${s}.changes
         UNION ALL SELECT member, at FROM ${s}.marks),
       gaps AS (
         SELECT member, extract(epoch FROM at - lag(at) OVER (PARTITION BY member ORDER BY at)) AS gap
         FROM acts)
       SELECT m.role_name AS member, m.role,
         (SELECT count(DISTINCT payload->>'box') FROM ${s}.changes c WHERE c.member = m.role_name) AS boxes,
         (SELECT sum(gap) FROM gaps g WHERE g.member = m.role_name AND gap <= ${IDLE_SECONDS}) AS active,
         (SELECT coalesce(sum(coalesce(frames, 1)), 0) FROM ${s}.answers a
           WHERE a.paid_by = m.role_name) AS frames
       FROM ${s}.members m ORDER BY m.role_name`,
      ),
    );
    return rows.map((r) => ({
      member: r.member,
      role: r.role === 'lead' ? 'lead' : 'annotator',
      boxesChanged: Number(r.boxes),
      activeSeconds: Math.round(Number(r.active ?? 0)),
      framesSpent: Number(r.frames),
    }));
  });
}
