/** Array literals as the hub's text and uuid arrays are written and read (pg-arrays.ts). */
import { describe, expect, it } from 'vitest';
import { parsePgArray, pgArrayLiteral } from '../../../../electron/core/team/pg-arrays.js';

describe('array literals', () => {
  it('quotes every element and escapes quotes and backslashes', () => {
    expect(pgArrayLiteral(['a', 'b c', 'q"', 'b\\s', null, ''])).toBe(
      '{"a","b c","q\\"","b\\\\s",NULL,""}',
    );
    expect(pgArrayLiteral([])).toBe('{}');
  });

  it('reads what PostgreSQL writes: bare and quoted elements, NULL, the empty array', () => {
    expect(parsePgArray('{a,"b c","q\\"","b\\\\s",NULL,"NULL",""}')).toEqual([
      'a',
      'b c',
      'q"',
      'b\\s',
      null,
      'NULL',
      '',
    ]);
    expect(parsePgArray('{}')).toEqual([]);
  });

  it('refuses what is not a one-dimensional literal', () => {
    expect(() => parsePgArray('a,b')).toThrow(/not an array literal/);
    expect(() => parsePgArray('{"a}')).toThrow(/inside a quoted element/);
    expect(() => parsePgArray('{"a"b}')).toThrow(/unexpected/);
  });
});
