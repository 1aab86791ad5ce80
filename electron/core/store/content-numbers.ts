/**
 * A content's number (`contents.id`, migration 26), given the first time its hash is seen: a scan's
 * hashing gives most of them, in the library's order (a trigger on `media`); a correction for a
 * content no file has (a hub's, an import's) is given one here. Inside the caller's transaction.
 */
import type { Db } from '../../node-lib/sqlite.js';

export function contentNumbers(db: Db): (hash: string) => number {
  const find = db.prepare<[string], number>('SELECT id FROM contents WHERE hash = ?').pluck();
  const add = db
    .prepare<[string], number>('INSERT INTO contents (hash) VALUES (?) RETURNING id')
    .pluck();
  return (hash) => find.get(hash) ?? (add.get(hash) as number);
}

/**
 * A content's number, from an SQL expression giving its hash. Lookups of corrections by content go
 * through it: `corrections_by_content` is keyed on the number.
 */
export const contentIdOf = (hash: string) => `(SELECT id FROM contents WHERE hash = ${hash})`;
