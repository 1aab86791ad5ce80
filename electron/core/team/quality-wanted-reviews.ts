/**
 * Where the team's quality meets its work split: an overlap file wants two members' reviews and
 * a honeypot every annotator's (`quality_wanted_reviews` in the hub), so claims hand such a file
 * to that many distinct members. Run after a lead changes the overlap, honeypots or settlements;
 * files added later take their count from the work schema's insert trigger.
 */
import type postgres from 'postgres';
import type { HubClient } from './hub-client.js';
import { teamErrorOf } from './team-errors.js';

/** The cap `work_files.wanted_reviews` checks. */
export const MAX_WANTED_REVIEWS = 50;

export const refreshWantedSql = (s: string) => `
  UPDATE ${s}.work_files w SET wanted_reviews = q.wanted
    FROM (SELECT content_hash,
            least(${MAX_WANTED_REVIEWS}, ${s}.quality_wanted_reviews(content_hash)) AS wanted
          FROM ${s}.work_files) q
   WHERE q.content_hash = w.content_hash AND w.wanted_reviews <> q.wanted`;

/** Refused by the database unless a lead (work_files is theirs); a hub without work is left alone. */
export async function refreshWantedReviews(
  hub: Pick<HubClient, 'use' | 'schema'>,
): Promise<number> {
  try {
    return await hub.use(async (sql, s) => {
      const [present] = await sql.unsafe<{ ok: boolean }[]>(
        `SELECT to_regclass($1) IS NOT NULL AS ok`,
        [`${s}.work_files`],
      );
      if (!present?.ok) return 0;
      const r: postgres.RowList<postgres.Row[]> = await sql.unsafe(refreshWantedSql(s));
      return r.count;
    });
  } catch (err) {
    throw teamErrorOf(err, hub.schema);
  }
}
