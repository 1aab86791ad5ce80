/**
 * Review marks' part of the failover check (hub-connect-check.ts does the changes'): with
 * asynchronous replication a primary may acknowledge a mark its standby never receives. On each
 * new connection a desktop asks the hub which of its latest pushed marks it holds; those it
 * lacks go out again (a mark's push is idempotent by id, and the mark logged last still wins).
 * A marks cursor past the end of the hub's log goes back to it: the promoted server hands those
 * numbers to new marks, which this desktop would otherwise never pull.
 */
import type { TeamPort, TransactionPort } from '../store/store-ports.js';
import type { HubClient } from './hub-client.js';
import { quoteIdent } from './hub-schema.js';

/** How many of this desktop's latest pushed marks are compared with the hub. */
const CHECKED = 10_000;

type CheckedHub = Pick<HubClient, 'query' | 'connector' | 'schema'>;

/** The connection count at each client's last check: a check runs once per new connection. */
const checkedAt = new WeakMap<object, number>();

/** Runs the check when `hub` made a connection since its last one; how many marks go again. */
export async function checkMarksHeld(
  store: TeamPort & TransactionPort,
  hub: object,
): Promise<number> {
  if (!('connector' in hub)) return 0;
  const h = hub as CheckedHub;
  const sessions = h.connector.sessions;
  if (sessions === 0 || checkedAt.get(h) === sessions) return 0;
  const marks = store.team.marks;
  const pushed = marks.lastPushed(CHECKED);
  const s = quoteIdent(h.schema);
  const [held, [end]] = await Promise.all([
    pushed.length === 0
      ? Promise.resolve([])
      : h.query<{ id: string }[]>(`SELECT id FROM ${s}.marks WHERE id = ANY($1::uuid[])`, [pushed]),
    h.query<{ seq: string | null }[]>(`SELECT max(seq) AS seq FROM ${s}.marks`, []),
  ]);
  checkedAt.set(h, sessions);
  const kept = new Set(held.map((r) => r.id));
  const lost = pushed.filter((id) => !kept.has(id));
  store.transaction(() => {
    marks.pushAgain(lost);
    marks.rewindCursor(Number(end?.seq ?? 0));
  });
  return lost.length;
}
