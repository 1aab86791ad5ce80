/**
 * The pull's writes to the team tables, many rows per statement: a pulled page's changes and the
 * boxes they settle. A statement a row cost most of a day offline's record step (50,000 runs of
 * one upsert); the same upserts over 100 rows at a time do the same with far fewer calls.
 */
import type { Db } from '../../node-lib/sqlite.js';
import type { PulledChange, TeamBoxRow } from './team-types.js';

/** Rows per statement (9 parameters a change: well under SQLite's limit). */
const ROWS = 100;

/** Runs `statementOf(n)` over `items` in runs of up to ROWS, each with its rows' parameters. */
function inRuns<T>(
  items: readonly T[],
  statementOf: (rows: number) => { run(params: unknown[]): unknown },
  push: (values: unknown[], item: T) => void,
): void {
  for (let done = 0; done < items.length; done += ROWS) {
    const part = items.slice(done, done + ROWS);
    const values: unknown[] = [];
    for (const item of part) push(values, item);
    statementOf(part.length).run(values);
  }
}

/** Prepares a statement per row count on first use. */
function byRows(db: Db, sql: (rows: number) => string) {
  const made = new Map<number, { run(params: unknown[]): unknown }>();
  return (rows: number) => {
    let stmt = made.get(rows);
    if (!stmt) {
      stmt = db.prepare<unknown[]>(sql(rows));
      made.set(rows, stmt);
    }
    return stmt;
  };
}

const values = (rows: number, one: string) => Array<string>(rows).fill(one).join(', ');

export function teamPulledWrites(db: Db) {
  // A change already here (ours, pushed or not) only learns its hub order and author.
  const record = byRows(
    db,
    (rows) => `INSERT INTO team_changes (id, box, content_hash, solution, parents, state, member,
       at, own, pushed, hub_seq)
     VALUES ${values(rows, '(?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?)')}
     ON CONFLICT (id) DO UPDATE SET hub_seq = excluded.hub_seq, member = excluded.member,
       pushed = 1`,
  );
  const setBoxes = byRows(
    db,
    (rows) => `INSERT INTO team_boxes (box, correction_id, heads, shown)
     VALUES ${values(rows, '(?, ?, ?, ?)')}
     ON CONFLICT (box) DO UPDATE SET correction_id = excluded.correction_id,
       heads = excluded.heads, shown = excluded.shown`,
  );
  return {
    /** Records pulled changes (inside the caller's transaction); the boxes they touch. */
    recordPulled(changes: readonly PulledChange[]): Set<string> {
      inRuns(changes, record, (v, c) =>
        v.push(
          c.id,
          c.box,
          c.contentHash,
          c.solution,
          JSON.stringify(c.parents),
          c.state === null ? null : JSON.stringify(c.state),
          c.member,
          c.at,
          c.seq,
        ),
      );
      return new Set(changes.map((c) => c.box));
    },
    /** Writes these boxes' records (inside the caller's transaction). */
    setBoxes(rows: readonly TeamBoxRow[]): void {
      inRuns(rows, setBoxes, (v, r) =>
        v.push(r.box, r.correctionId, JSON.stringify(r.heads), r.shown),
      );
    },
  };
}
