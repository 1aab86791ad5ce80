/**
 * Answers for requests that never reach a route: Node's HTTP parser refused them (431, 400), they
 * took too long to arrive (408), or they asked for a tunnel (CONNECT). There is no response object
 * then, so the JSON error answer is written to the socket by hand, and the connection is closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './respond.js';

interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** How long a refused connection may take to flush its answer before it is dropped. */
const FLUSH_MS = 1000;

export function classifyClientError(err: ParserError): {
  status: number;
  code: string;
  message: string;
} {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        message: 'The request line and headers are too large.',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'chunk_extensions_too_large',
        message: 'The chunk extensions of the body are too large.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        message: 'The request did not arrive in time.',
      };
    case 'HPE_INVALID_EOF_STATE':
      return {
        status: 400,
        code: 'incomplete_request',
        message: 'The connection ended before the request was complete.',
      };
    default: {
      // llhttp's reason is a fixed phrase of its own, never text from the request.
      const reason = err.reason ? `: ${err.reason.replace(/[^\x20-\x7e]/g, '')}` : '';
      return {
        status: 400,
        code: 'malformed_request',
        message: `The request could not be parsed${reason}.`,
      };
    }
  }
}

/** Writes one complete JSON error answer to a raw socket and closes it once flushed. */
export function answerOnSocket(
  socket: Duplex,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(errorBody(code, message));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Access-Control-Allow-Origin: *',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ].join('\r\n');
  const timer = setTimeout(() => socket.destroy(), FLUSH_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}

/** The server's `clientError` handler, once no other answer is due on the connection. */
export function handleClientError(
  err: ParserError,
  socket: Duplex,
  log: (line: string) => void,
): void {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, code, message } = classifyClientError(err);
  log(`refused a request before routing: ${status} ${code} (${err.code ?? err.message})`);
  answerOnSocket(socket, status, code, message);
}
