/**
 * Honeypots whose truth some members may already hold (issue 26 §3). A file marked a honeypot
 * after its truth-setter's changes reached the hub was readable by every member then: a desktop
 * that synced meanwhile applied those boxes, and showed them. Hiding them from then on (the
 * hidden rows of hub-quality-hidden-schema.ts) cannot take back what a person has seen, and the
 * desktop does not drop them either: the member's own edits may build on those boxes (their
 * parents), and a person's work is never rewritten behind them. So the report leaves such a file
 * out of that member's blind honeypot scores and counts it apart ("seen").
 *
 * A member may have seen it when they were a member before the file was marked and the one who
 * marked it (whose version is the truth) had pushed a change of it before then. The hub's clock
 * dates both (`changes.at`, `quality_honeypots.added_at`, `members.added_at`).
 */
import type { HubClient } from './hub-client.js';
import { asLeadsRead } from './hub-quality.js';
import { teamErrorOf } from './team-errors.js';

/** Per honeypot, the members who may have pulled its truth before it was marked. */
export const exposedHoneypotsSql = (s: string) => `
  SELECT hp.content_hash, array_agg(m.role_name::text ORDER BY m.role_name) AS members
  FROM ${s}.quality_honeypots hp
  JOIN ${s}.members m ON m.added_at < hp.added_at AND m.role_name <> hp.added_by
  WHERE EXISTS (SELECT 1 FROM ${s}.changes c
    WHERE c.payload->>'contentHash' = hp.content_hash AND c.member = hp.added_by
      AND c.at < hp.added_at)
  GROUP BY hp.content_hash`;

/** Content hash → the members whose score on that honeypot is not blind (a lead's read). */
export async function exposedHoneypots(
  hub: Pick<HubClient, 'use' | 'schema'>,
): Promise<Map<string, Set<string>>> {
  try {
    return await hub.use(async (sql, s) => {
      const rows = await asLeadsRead(sql, (tx) =>
        tx.unsafe<{ content_hash: string; members: string[] }[]>(exposedHoneypotsSql(s)),
      );
      return new Map(rows.map((r) => [r.content_hash, new Set(r.members)]));
    });
  } catch (err) {
    throw teamErrorOf(err, hub.schema);
  }
}
