/** Sends raw bytes to a server over node:net and reads back every HTTP answer, with a hard timeout. */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Exchange {
  answers: RawAnswer[];
  /** The server closed (or reset) the connection. */
  closed: boolean;
  timedOut: boolean;
  /** Bytes after the last complete answer that do not form one (a truncated or garbled answer). */
  leftover: string;
  error?: string;
  ms: number;
}

export interface SendOptions {
  /** End our side after the request, as a client that has nothing more to send does. */
  halfClose: boolean;
  /** Answers to HEAD carry no body whatever their Content-Length says. */
  head?: boolean;
  /** Stop reading once this many final (non-1xx) answers arrived. */
  expectAnswers?: number;
  timeoutMs: number;
}

/** Parses as many complete answers as `buf` holds; returns them and the bytes left over. */
export function parseAnswers(buf: Buffer, head = false): { answers: RawAnswer[]; rest: Buffer } {
  const answers: RawAnswer[] = [];
  let rest = buf;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const lines = rest.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!m) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(m[1]);
    const noBody = head || status === 204 || status === 304 || (status >= 100 && status < 200);
    const length = noBody ? 0 : Number(headers['content-length'] ?? NaN);
    const start = end + 4;
    let body: Buffer;
    let next: number;
    if (Number.isFinite(length)) {
      if (rest.length < start + length) break;
      body = rest.subarray(start, start + length);
      next = start + length;
    } else if ((headers['transfer-encoding'] ?? '').toLowerCase() === 'chunked') {
      const chunked = readChunked(rest, start);
      if (!chunked) break;
      ({ body, next } = chunked);
    } else {
      break; // a body delimited by the close: wait for it
    }
    answers.push({ status, headers, body });
    rest = rest.subarray(next);
  }
  return { answers, rest };
}

function readChunked(buf: Buffer, from: number): { body: Buffer; next: number } | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol === -1) return undefined;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) {
      const done = buf.indexOf('\r\n\r\n', eol);
      return done === -1 ? undefined : { body: Buffer.concat(parts), next: done + 4 };
    }
    if (buf.length < eol + 2 + size + 2) return undefined;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

export function sendRaw(port: number, payload: Buffer, options: SendOptions): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let settled = false;
    let timedOut = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      let { answers, rest } = parseAnswers(bytes, options.head);
      // A HEAD the parser refused is answered like any refused request, with a body.
      if (options.head && rest.length > 0) ({ answers, rest } = parseAnswers(bytes, false));
      socket.destroy();
      resolve({
        answers,
        closed,
        timedOut,
        leftover: rest.subarray(0, 200).toString('latin1'),
        ...(error ? { error } : {}),
        ms: Math.round(performance.now() - started),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      finish(false);
    }, options.timeoutMs);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      if (options.expectAnswers === undefined) return;
      const { answers } = parseAnswers(Buffer.concat(chunks), options.head);
      if (answers.filter((a) => a.status >= 200).length >= options.expectAnswers) finish(false);
    });
    // A server that answers early and closes may reset our unfinished upload: that is allowed.
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => finish(true));
    socket.write(payload, () => {
      if (options.halfClose) socket.end();
    });
  });
}
