/**
 * An object read member by member with one array in chunks (the COCO reader's annotations): it
 * gives JSON.parse's values and accepts a text exactly when JSON.parse does.
 */
import { describe, expect, it } from 'vitest';
import { readObjectInChunks } from '../../../../electron/core/import/json-chunks.js';

/** The object as JSON.parse gives it, rebuilt from the members and every chunk. */
function readBack(text: string, size: number): Record<string, unknown> {
  const r = readObjectInChunks(text, 'list', size);
  const out: Record<string, unknown> = Object.fromEntries(r.members);
  if (r.chunks) {
    const list: unknown[] = [];
    for (const chunk of r.chunks()) {
      expect(chunk.length).toBeLessThanOrEqual(size);
      list.push(...chunk);
    }
    out['list'] = list;
  } else if (r.other !== undefined) out['list'] = r.other;
  return out;
}

const accepted = (text: string) => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'rejected';
  }
};

const ours = (text: string, size: number) => {
  try {
    return { value: readBack(text, size) };
  } catch (err) {
    expect(err).toBeInstanceOf(SyntaxError);
    return 'rejected';
  }
};

const VALID = [
  '{}',
  ' \n{ } \t',
  '{"list":[]}',
  '{"list" : [ ] , "a":1}',
  '{"a":{"b":[1,{"c":"]}"}]},"list":[1,"x",{"y":[2,3]},[4],null,true,-1.5e3],"z":"q\\"}"}',
  '{"list":[{"s":"a\\\\"},{"s":"\\\\\\""}],"k":"\\u005b"}',
  '{"list":[1,2,3,4,5,6,7],"list":[8,9]}',
  '{"list":{"not":"an array"}}',
  '{"list":"text","b":false}',
  '{\r\n  "list": [\r\n    {"id": 1},\r\n    {"id": 2}\r\n  ]\r\n}\r\n',
  // Elements matched whole as flat objects, and ones that only look flat at first.
  '{"list":[{"a":"x{y}[z],","b":[1,2]} , {"a":"q\\"}"},{"n":{"m":1}},{"s":["t"]},{"c":[1,[2]]}]}',
  '{"list":[{ "k" : [ 1 , 2 ] , "e" : [ ] },{},{"x":"]"},{"y":"\\\\"},{"z":[{}]}]}',
];

const INVALID = [
  '',
  '{',
  '{"list":[1,2,]}',
  '{"list":[,1]}',
  '{"list":[1 2]}',
  '{"list":[1,2]',
  '{"list":[1,2]}}',
  '{"list":[1,2]} x',
  '{"a":1,}',
  '{"a" 1}',
  '{a:1}',
  '{"list":[{"x":1]}',
  '{"list":[1,2,3,nope]}',
  '{"list":["open]}',
  '{"list":[1],"list":[1,,2]}',
  '{"a":01,"list":[]}',
  '\uFEFF{"list":[]}',
  '{"list":[{"a":[1,2},3]}',
  '{"list":[{"a":1}},2]}',
  '{"list":[{"a":1]]}',
  '{"list":[{"a":"b"c"}]}',
  '{"list":[{"a":1},{"b":[1,2]]}',
];

describe('readObjectInChunks', () => {
  it.each(VALID)('gives JSON.parse’s value for %j at every chunk size', (text) => {
    for (const size of [1, 2, 3, 1000]) expect(ours(text, size)).toEqual(accepted(text));
  });

  it.each(INVALID)('rejects %j as JSON.parse does', (text) => {
    expect(accepted(text)).toBe('rejected');
    for (const size of [1, 2, 1000]) expect(ours(text, size)).toBe('rejected');
  });

  it('rejects a huge element that only looks flat in linear time', () => {
    const parts = ['"a":[1],', '"b":"s",', '"c":2,'];
    for (const part of parts) {
      const text = `{"list":[{${part.repeat(300_000)}]}`;
      const started = performance.now();
      expect(ours(text, 1000)).toBe('rejected');
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it("keeps a chunk's text short (a long string is slow to make) and gives each element's text", () => {
    const element = (i: number) => ({ id: i, note: 'n'.repeat(i % 3 === 0 ? 25_000 : 10) });
    const list = Array.from({ length: 30 }, (_, i) => element(i));
    const text = JSON.stringify({ head: 1, list, tail: [2] }, null, 1);
    const r = readObjectInChunks(text, 'list', 1000);
    const chunks = [...(r.chunks?.() ?? [])] as { note: string }[][];
    // Elements of 25k characters: a chunk ends once past 60k, so at most three of them.
    const longOnes = chunks.map((c) => c.filter((e) => e.note.length > 100).length);
    expect(Math.max(...longOnes)).toBe(3);
    expect(chunks.flat()).toEqual(list);
    for (const i of [0, 1, 17, 29]) {
      const own = r.elementText?.(i) ?? '';
      expect(JSON.parse(own)).toEqual(element(i));
      // As the file gives it, its spacing too.
      expect(text).toContain(own);
      expect(own.startsWith('{') && own.endsWith('}')).toBe(true);
    }
  });

  it('parses the array only as its chunks are asked for', () => {
    const r = readObjectInChunks('{"list":[1,2,3,bad]}', 'list', 2);
    const chunks = r.chunks?.();
    expect(chunks?.next().value).toEqual([1, 2]);
    expect(() => chunks?.next()).toThrow(SyntaxError);
  });
});
