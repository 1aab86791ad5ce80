/**
 * What a desktop checks after it reaches the hub on a new connection (hub-connect-check.ts): a
 * standby promoted after an asynchronous primary died may lack the last changes that primary
 * acknowledged. The most recent changes with a hub order (by local order: the primary key, no
 * scan of the whole table), this desktop's changes pushed but not seen back yet, and the two
 * repairs: push own changes again (harmless: ids), and pull again from an earlier point.
 */
import type { Db } from '../../node-lib/sqlite.js';

export interface TeamFailoverApi {
  /** Up to `limit` of the latest changes known with a hub order, latest first. */
  lastOrdered(limit: number): { id: string; hubSeq: number; own: boolean }[];
  /** This desktop's changes among the latest `window` that were pushed but not pulled back. */
  unconfirmed(window: number): string[];
  /** Every change of this desktop already pushed (the hub kept none of what was checked). */
  allOwnPushed(): string[];
  /** These changes of this desktop go out again, in the order they were made. */
  pushAgain(ids: readonly string[]): void;
  /** The pull cursor goes back to `seq` (never forward). */
  rewindCursor(seq: number): void;
}

export function teamFailoverRepo(db: Db): TeamFailoverApi {
  const lastStmt = db.prepare<[number], { id: string; hub_seq: number; own: number }>(
    `SELECT id, hub_seq, own FROM team_changes WHERE hub_seq IS NOT NULL
     ORDER BY seq_local DESC LIMIT ?`,
  );
  const unconfirmedStmt = db
    .prepare<[number], string>(
      `SELECT id FROM team_changes
       WHERE seq_local > (SELECT coalesce(max(seq_local), 0) FROM team_changes) - ?
         AND own = 1 AND pushed = 1 AND hub_seq IS NULL`,
    )
    .pluck();
  const ownStmt = db
    .prepare<[], string>('SELECT id FROM team_changes WHERE own = 1 AND pushed = 1')
    .pluck();
  const againStmt = db.prepare<[string]>('UPDATE team_changes SET pushed = 0 WHERE id = ?');
  const rewindStmt = db.prepare<[number]>(
    'UPDATE team_project SET pull_cursor = min(pull_cursor, ?) WHERE id = 1',
  );
  const againTx = db.transaction((ids: readonly string[]) => {
    for (const id of ids) againStmt.run(id);
  });
  return {
    lastOrdered: (limit) =>
      lastStmt.all(limit).map((r) => ({ id: r.id, hubSeq: r.hub_seq, own: r.own === 1 })),
    unconfirmed: (window) => unconfirmedStmt.all(window),
    allOwnPushed: () => ownStmt.all(),
    pushAgain: (ids) => againTx(ids),
    rewindCursor: (seq) => void rewindStmt.run(seq),
  };
}
