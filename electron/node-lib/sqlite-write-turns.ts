/**
 * A connection's writes made to take turns (write-turns.ts): every transaction (begun IMMEDIATE
 * unless asked otherwise), and every write statement run outside one, as an announced write or as
 * the bulk writer's turn.
 */
import type Database from 'better-sqlite3';
import { announcedWrite, bulkTurn } from './write-turns.js';

export type WriteTurns = 'announced' | 'bulk';

type Db = Database.Database;
type AnyFn = (...args: unknown[]) => unknown;

/** `onTurn`: for announced writes, called once each has its turn, before it writes. */
export function takeWriteTurns(db: Db, kind: WriteTurns, onTurn?: () => void): void {
  const announced = <T>(fn: () => T): T =>
    announcedWrite(() => {
      onTurn?.();
      return fn();
    });
  const turn = kind === 'bulk' ? bulkTurn : onTurn ? announced : announcedWrite;
  const inTurn =
    (f: AnyFn): AnyFn =>
    (...args) =>
      turn(() => f(...args));
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: AnyFn) => {
    const t = transaction(fn);
    // IMMEDIATE by default: the write lock is taken at BEGIN, through SQLite's busy handler. A
    // deferred transaction that read first could not wait for it (SQLITE_BUSY_SNAPSHOT once
    // another connection commits in between: a turn given up after its wait, a disk that holds a
    // commit for seconds, another process).
    return Object.assign(inTurn(t.immediate), {
      default: inTurn(t.immediate),
      deferred: inTurn(t.deferred),
      immediate: inTurn(t.immediate),
      exclusive: inTurn(t.exclusive),
    });
  }) as Db['transaction'];
  // The bulk writer writes only inside its transactions; for it the statements stay bare.
  if (kind === 'bulk') return;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.readonly) return statement;
    // A write on its own (no transaction) takes its turn; inside one, the turn is already taken.
    const s = statement as unknown as Record<'run' | 'get' | 'all', AnyFn>;
    for (const name of ['run', 'get', 'all'] as const) {
      const bare = s[name].bind(statement);
      s[name] = (...args) => (db.inTransaction ? bare(...args) : turn(() => bare(...args)));
    }
    return statement;
  }) as Db['prepare'];
}
