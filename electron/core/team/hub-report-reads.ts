/**
 * What `team report` reads from the hub without holding the whole project in memory: per member
 * how many files they hold reviewed (counted in SQL), who reviewed a given set of files, and the
 * reviewed set itself one page at a time in content order (a keyset: each page starts after the
 * last hash of the one before).
 */
import type postgres from 'postgres';
import type { HubClient } from './hub-client.js';
import { teamErrorOf } from './team-errors.js';

type Hub = Pick<HubClient, 'use' | 'schema'>;

/** The files each member's last mark (per file and solution) says they reviewed. */
const lastReviewed = (s: string, where: string) => `
  SELECT member, content_hash FROM (
    SELECT DISTINCT ON (member, content_hash, solution) member, content_hash, reviewed
    FROM ${s}.marks ${where} ORDER BY member, content_hash, solution, seq DESC) last
  WHERE reviewed`;

async function run<T>(hub: Hub, work: (sql: postgres.Sql, s: string) => Promise<T>): Promise<T> {
  try {
    return await hub.use(work);
  } catch (err) {
    throw teamErrorOf(err, hub.schema);
  }
}

/** Per member: how many distinct files they hold reviewed. */
export function reviewedCounts(hub: Hub): Promise<Map<string, number>> {
  return run(hub, async (sql, s) => {
    const rows = await sql.unsafe<{ member: string; n: number }[]>(
      `SELECT member, count(DISTINCT content_hash)::int AS n FROM (${lastReviewed(s, '')}) r
       GROUP BY member`,
    );
    return new Map(rows.map((r) => [r.member, r.n]));
  });
}

type ReviewedRow = { member: string; content_hash: string };

function byMember(rows: readonly ReviewedRow[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const files = out.get(r.member) ?? new Set<string>();
    files.add(r.content_hash);
    out.set(r.member, files);
  }
  return out;
}

/** Per member: every file they hold reviewed. */
export function reviewedBy(hub: Hub): Promise<Map<string, Set<string>>> {
  return run(hub, async (sql, s) => byMember(await sql.unsafe<ReviewedRow[]>(lastReviewed(s, ''))));
}

/** Per member: which of these files they hold reviewed. */
export function reviewedAmong(
  hub: Hub,
  contentHashes: readonly string[],
): Promise<Map<string, Set<string>>> {
  return run(hub, async (sql, s) =>
    byMember(
      await sql.unsafe<ReviewedRow[]>(lastReviewed(s, 'WHERE content_hash = ANY($1::text[])'), [
        contentHashes as string[],
      ]),
    ),
  );
}

/** Up to `limit` files anyone holds reviewed, in content order after `after` (null: from the start). */
export function reviewedPage(hub: Hub, after: string | null, limit: number): Promise<string[]> {
  return run(hub, async (sql, s) => {
    const rows = await sql.unsafe<{ content_hash: string }[]>(
      `SELECT DISTINCT content_hash FROM (
         ${lastReviewed(s, 'WHERE $1::text IS NULL OR content_hash > $1::text')}) r
       ORDER BY content_hash LIMIT $2`,
      [after, limit],
    );
    return rows.map((r) => r.content_hash);
  });
}
