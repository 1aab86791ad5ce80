/**
 * A JSON object read member by member, one big array of it handed out in chunks: a 100k-image
 * COCO parsed whole keeps a million annotation objects alive at once, which the collector then
 * copies and walks (seconds of GC); parsed a chunk at a time they die young. The scan only finds
 * where values begin and end; `JSON.parse` of each slice still validates every byte, and anything
 * between values is checked here, so a text is accepted exactly when `JSON.parse` accepts it.
 */
import { grown } from './grown-array.js';

export interface ObjectMembers {
  /** Every member but the chunked one, parsed (the last of a repeated key wins, as in JSON.parse). */
  members: Map<string, unknown>;
  /** The chunked member's elements, parsed a chunk at a time; null when the object has none. */
  chunks: (() => Generator<unknown[]>) | null;
  /** The chunked member when it is not an array, parsed. */
  other: unknown;
  /**
   * The text of the chunked member's element `i` as the source gives it (valid JSON, as its
   * chunk's parse has shown by the time the element is handed out); null when there are none.
   */
  elementText: ((i: number) => string) | null;
}

/** Where each element of the chunked array starts and ends in the text, in order. */
class Spans {
  private at = new Uint32Array(2048);
  private n = 0;

  push(start: number, end: number): void {
    this.at = grown(this.at, this.n + 2);
    this.at[this.n++] = start;
    this.at[this.n++] = end;
  }

  textOf(text: string, i: number): string {
    return text.slice(this.at[2 * i] ?? 0, this.at[2 * i + 1] ?? 0);
  }
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

const bad = (at: number) => new SyntaxError(`Unexpected JSON at position ${at}`);

/** Just past the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw bad(i);
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Just past the value starting at `i` (its content is left to JSON.parse). */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === 44 || isSpace(c))) return i;
  }
  if (depth !== 0) throw bad(i);
  return i;
}

/**
 * An object of strings without escapes, other plain values and flat arrays (of no string or
 * object): most elements of a big array, COCO's annotations above all. Matched at once it ends
 * where valueEnd would end it, four times faster. Each part starts with a character of its own, so
 * a failed match backtracks over each character once: linear, like the scan it saves.
 */
const FLAT_OBJECT = /\{[^{}[\]"]*(?:"[^"\\]*"[^{}[\]"]*|\[[^{}[\]"]*\][^{}[\]"]*)*\}/y;

/** Just past the array element starting at `i`. */
function elementEnd(text: string, i: number): number {
  FLAT_OBJECT.lastIndex = i;
  return FLAT_OBJECT.test(text) ? FLAT_OBJECT.lastIndex : valueEnd(text, i);
}

/** Where the next member or element goes after a value: a comma, or the closing `close`. */
function afterValue(text: string, i: number, close: number): { at: number; last: boolean } {
  const at = skipSpace(text, i);
  const c = text.charCodeAt(at);
  if (c === 44) return { at: skipSpace(text, at + 1), last: false };
  if (c === close) return { at: at + 1, last: true };
  throw bad(at);
}

/**
 * Characters a chunk spans at most (unless one element alone is longer): V8 gives a string over
 * 128 KB pages of its own, mapped and unmapped one by one, 20-40 times as slow to make as shorter
 * ones on the 2-core machine; a chunk's text, and the kept texts cut from it, stay under that.
 */
const CHUNK_CHARS = 60_000;

/**
 * The array at `open`: where each chunk of up to `size` elements (and about CHUNK_CHARS) starts
 * and ends (pairs of offsets), where each element does, and just past the array. One scan, done
 * with the members'; the elements are parsed later.
 */
function arrayChunks(
  text: string,
  open: number,
  size: number,
): { spans: number[]; end: number; elements: Spans } {
  const spans: number[] = [];
  const elements = new Spans();
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === 93) return { spans, end: i + 1, elements };
  for (;;) {
    const from = i;
    let end = i;
    let last = false;
    for (let n = 0; n < size && !last && end - from < CHUNK_CHARS; n++) {
      end = elementEnd(text, i);
      if (end === i) throw bad(i);
      elements.push(i, end);
      ({ at: i, last } = afterValue(text, end, 93));
    }
    spans.push(from, end);
    if (last) return { spans, end: i, elements };
  }
}

function* parsedChunks(text: string, spans: readonly number[]): Generator<unknown[]> {
  for (let k = 0; k < spans.length; k += 2)
    yield JSON.parse(`[${text.slice(spans[k], spans[k + 1])}]`) as unknown[];
}

/** `text` as a JSON object with the array member `chunked` read in chunks of `size` elements. */
export function readObjectInChunks(text: string, chunked: string, size: number): ObjectMembers {
  const members = new Map<string, unknown>();
  const out: ObjectMembers = { members, chunks: null, other: undefined, elementText: null };
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 123) throw bad(i);
  i = skipSpace(text, i + 1);
  let last = text.charCodeAt(i) === 125;
  let seen: (() => Generator<unknown[]>) | null = null;
  if (last) i++;
  while (!last) {
    if (text.charCodeAt(i) !== 34) throw bad(i);
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const colon = skipSpace(text, keyEnd);
    if (text.charCodeAt(colon) !== 58) throw bad(colon);
    const start = skipSpace(text, colon + 1);
    const array = key === chunked && text.charCodeAt(start) === 91;
    const inChunks = array ? arrayChunks(text, start, size) : null;
    const end = inChunks ? inChunks.end : valueEnd(text, start);
    if (end === start) throw bad(start);
    if (key === chunked) {
      // JSON.parse would still reject a broken earlier value of a repeated key.
      if (seen) for (const chunk of seen()) void chunk;
      const spans = inChunks?.spans ?? [];
      seen = () => parsedChunks(text, spans);
      out.chunks = inChunks ? seen : null;
      out.elementText = inChunks ? (i) => inChunks.elements.textOf(text, i) : null;
      out.other = inChunks ? undefined : JSON.parse(text.slice(start, end));
    } else members.set(key, JSON.parse(text.slice(start, end)));
    ({ at: i, last } = afterValue(text, end, 125));
  }
  if (skipSpace(text, i) !== text.length) throw bad(i);
  return out;
}
