/**
 * The hub's array types (text[] and uuid[]: content hashes, change ids, member names), written and
 * read here rather than by postgres.js's own array handling. That handling needs the server's
 * array types, which postgres.js asks for as the first statement of every connection and whose
 * failure it never hands to anyone: a hub lost at that moment (a failover, a server stopping)
 * became an unhandled rejection, which ends a Node process (postgres.js issues 1192, 1205, 1223).
 * With `fetch_types: false` and these types, no such statement is made.
 */
import type postgres from 'postgres';

type Element = string | number | bigint | null;

/** A one-dimensional array literal, every element quoted ("" and \ escaped), NULL for null. */
export function pgArrayLiteral(values: readonly Element[]): string {
  const items = values.map((v) =>
    v === null ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${items.join(',')}}`;
}

/**
 * A one-dimensional array literal as PostgreSQL writes text and uuid arrays: elements quoted when
 * they need it (with \ escapes), NULL unquoted for null.
 */
export function parsePgArray(text: string): (string | null)[] {
  if (text.length < 2 || text[0] !== '{' || text[text.length - 1] !== '}')
    throw new Error(`not an array literal: ${text.slice(0, 40)}`);
  const out: (string | null)[] = [];
  const end = text.length - 1;
  let i = 1;
  if (i === end) return out;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      for (i++; text[i] !== '"'; i++) {
        if (i >= end) throw new Error('an array literal ends inside a quoted element');
        if (text[i] === '\\') i++;
        value += text[i];
      }
      out.push(value);
      i++;
    } else {
      let stop = text.indexOf(',', i);
      if (stop < 0 || stop > end) stop = end;
      const raw = text.slice(i, stop).trim();
      out.push(raw.toUpperCase() === 'NULL' ? null : raw);
      i = stop;
    }
    if (i >= end) return out;
    if (text[i] !== ',') throw new Error(`unexpected "${text[i]}" in an array literal`);
    i++;
  }
}

const arrayType = (oid: number) => ({
  to: oid,
  from: [oid],
  serialize: (x: unknown) => (Array.isArray(x) ? pgArrayLiteral(x as Element[]) : String(x)),
  parse: parsePgArray,
});

/** For postgres.js's `types` option (with `fetch_types: false`): text[] (1009), uuid[] (2951). */
export const HUB_ARRAY_TYPES = {
  textArray: arrayType(1009),
  uuidArray: arrayType(2951),
} satisfies Record<string, postgres.PostgresType>;
