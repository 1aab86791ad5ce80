/**
 * After the hub fails over, what it acknowledged may be gone. With asynchronous replication a
 * primary tells a desktop a push is saved before its standby has it; if the primary dies then,
 * the promoted standby lacks those changes, and its sequence may hand their `seq` numbers to new
 * changes. So on each new connection a desktop asks the hub for the changes it knows last (by
 * id): changes of its own the hub lacks go out again (a push is idempotent by id), and when the
 * hub's order differs from the one this desktop pulled, the cursor goes back to the last change
 * both agree on (re-pulled changes are recorded once, by id). Synchronous replication
 * (README) loses nothing; this keeps an asynchronous one from losing a desktop's work silently.
 */
import type { TeamPort } from '../store/store-ports.js';
import type { HubClient } from './hub-client.js';
import { quoteIdent } from './hub-schema.js';

/** How many of the latest known changes are compared with the hub. */
const CHECKED = 1000;
/** How far back (local changes) own changes pushed but not pulled back are looked for. */
const WINDOW = 10_000;

type CheckedHub = Pick<HubClient, 'query' | 'connector' | 'schema'>;

/** The connection count at each client's last check: a check runs once per new connection. */
const checkedAt = new WeakMap<object, number>();

export interface HoldsCheck {
  /** Own changes the hub lacked, now waiting to go out again. */
  pushAgain: number;
  /** Where the pull cursor went back to, if it did. */
  rewoundTo: number | null;
}

/** Runs the check when `hub` made a connection since its last one (a test's stand-in: never). */
export async function checkHubHolds(store: TeamPort, hub: object): Promise<HoldsCheck> {
  const none = { pushAgain: 0, rewoundTo: null };
  return 'connector' in hub ? check(store, hub as CheckedHub, none) : none;
}

async function check(store: TeamPort, hub: CheckedHub, none: HoldsCheck): Promise<HoldsCheck> {
  const sessions = hub.connector.sessions;
  if (sessions === 0 || checkedAt.get(hub) === sessions) return none;
  const last = store.team.failover.lastOrdered(CHECKED);
  const unconfirmed = store.team.failover.unconfirmed(WINDOW);
  if (last.length === 0 && unconfirmed.length === 0) {
    checkedAt.set(hub, sessions);
    return none;
  }
  const rows = await hub.query<{ id: string; seq: string }[]>(
    `SELECT id, seq FROM ${quoteIdent(hub.schema)}.changes WHERE id = ANY($1::uuid[])`,
    [[...last.map((c) => c.id), ...unconfirmed]],
  );
  checkedAt.set(hub, sessions);
  const held = new Map(rows.map((r) => [r.id, Number(r.seq)]));
  // The hub's log is a prefix of the old primary's up to the latest change both agree on.
  const agreed = Math.max(
    0,
    ...last.filter((c) => held.get(c.id) === c.hubSeq).map((c) => c.hubSeq),
  );
  const differs = last.some((c) => c.hubSeq > agreed);
  if (!differs && unconfirmed.every((id) => held.has(id))) return none;
  const lost =
    agreed === 0 && last.length > 0
      ? // Nothing checked is agreed: what came before is not known either; offer all again.
        store.team.failover.allOwnPushed().filter((id) => !held.has(id))
      : [...last.filter((c) => c.own && !held.has(c.id)).map((c) => c.id), ...unconfirmed].filter(
          (id) => !held.has(id),
        );
  store.team.failover.pushAgain(lost);
  if (differs) store.team.failover.rewindCursor(agreed);
  return { pushAgain: lost.length, rewoundTo: differs ? agreed : null };
}
