/**
 * HTTP Range for media (RFC 9110 §14): one parser and one planner, used by the Electron media
 * protocol (whose `net.fetch` of file:// ignores Range, so clips could not seek) and by browser
 * mode's loopback server. Only single ranges are honoured: a multi-range or malformed header is
 * ignored and the whole file is sent, which the RFC allows and media elements never need.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { type FileHandle, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

export type RangePlan =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

function toOffset(digits: string): number | undefined {
  if (digits === '') return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

/** What to send for a Range header against a representation of `size` bytes. */
export function parseRange(header: string | null | undefined, size: number): RangePlan {
  if (header === null || header === undefined) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: 'full' };
  const first = toOffset(match[1] ?? '');
  const last = toOffset(match[2] ?? '');
  if (Number.isNaN(first) || Number.isNaN(last)) return { kind: 'full' };
  if (first === undefined) {
    // bytes=-N: the last N bytes.
    if (last === undefined) return { kind: 'full' };
    if (last === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - last), end: size - 1 };
  }
  if (last !== undefined && last < first) return { kind: 'full' };
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start: first, end: Math.min(last ?? size - 1, size - 1) };
}

export interface RangeAnswer {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  /** The inclusive byte span to send; absent for 416. */
  body?: { start: number; end: number };
}

/** Status, headers and byte span for a file of `size` bytes and a request's Range header. */
export function planRangeAnswer(
  rangeHeader: string | null | undefined,
  size: number,
  contentType: string,
): RangeAnswer {
  const plan = parseRange(rangeHeader, size);
  const common = { 'Accept-Ranges': 'bytes', 'Content-Type': contentType };
  if (plan.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...common, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' },
    };
  }
  if (plan.kind === 'full') {
    return {
      status: 200,
      headers: { ...common, 'Content-Length': String(size) },
      body: { start: 0, end: size - 1 },
    };
  }
  return {
    status: 206,
    headers: {
      ...common,
      'Content-Range': `bytes ${plan.start}-${plan.end}/${size}`,
      'Content-Length': String(plan.end - plan.start + 1),
    },
    body: { start: plan.start, end: plan.end },
  };
}

export interface ServedFile {
  path: string;
  contentType: string;
  /** Already open (and verified by its owner): read from it and close it, never the path. */
  handle?: FileHandle;
}

/** The size of what will be sent, or undefined (404): the open handle's, else the path's now. */
export async function servedSize(file: ServedFile): Promise<number | undefined> {
  try {
    const info = await (file.handle ? file.handle.stat() : stat(file.path));
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes of `span`, from the open handle when there is one (closed at the end). */
export function readSpan(file: ServedFile, span: { start: number; end: number }): ReadStream {
  return file.handle
    ? file.handle.createReadStream({ ...span, autoClose: true })
    : createReadStream(file.path, span);
}

/**
 * A Web `Response` for a file and a Range header, streamed from disk. The size is read at answer
 * time (the library's record may be older than the file); a vanished file is a 404.
 */
export async function rangeResponse(
  file: ServedFile,
  rangeHeader: string | null | undefined,
  method = 'GET',
): Promise<Response> {
  const size = await servedSize(file);
  if (size === undefined) {
    await file.handle?.close();
    return new Response(null, { status: 404 });
  }
  const answer = planRangeAnswer(rangeHeader, size, file.contentType);
  const span = answer.body;
  const sendBytes = method !== 'HEAD' && span !== undefined && span.end >= span.start;
  if (!sendBytes) await file.handle?.close();
  const body = sendBytes
    ? (Readable.toWeb(readSpan(file, span)) as ReadableStream<Uint8Array>)
    : null;
  return new Response(body, { status: answer.status, headers: answer.headers });
}
