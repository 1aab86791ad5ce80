import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

/** Unread request bodies up to this size are drained before an early error answer. */
const DRAIN_BEFORE_ANSWER_BYTES = 4 * 1024 * 1024;
/** How long an early error answer waits for (or keeps discarding) an unread body before closing. */
const DRAIN_WAIT_MS = 3000;

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Expose-Headers': 'Retry-After',
  'Access-Control-Max-Age': '600',
} as const;

export function setCors(res: ServerResponse): void {
  for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function errorBody(
  code: string,
  message: string,
): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** True once the client's connection is gone: nothing can be answered any more. */
export function clientGone(req: IncomingMessage, res: ServerResponse): boolean {
  const socket = req.socket as IncomingMessage['socket'] | null;
  return res.destroyed || !socket || socket.destroyed;
}

/**
 * Sends an error body, at most once per response. When the request body has not been read (an
 * early 4xx during an upload), the rest of the body is discarded for a bounded time: a small body is
 * read to its end before the answer (answering mid-upload can make a client see a reset instead of
 * the answer), a large or unsized one is answered at once; either way the connection is dropped if
 * the body has not ended within DRAIN_WAIT_MS.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  log: (line: string) => void,
): void {
  if (clientGone(req, res)) {
    // The client hung up (or the connection was dropped): an abort, not a failure of the service.
    log(`client aborted ${req.method} ${pathOf(req)}`);
    res.destroy();
    return;
  }
  const apiError =
    err instanceof ApiError
      ? err
      : new ApiError(500, 'internal_error', 'The service failed to handle this request.');
  if (!(err instanceof ApiError)) {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`internal error on ${req.method} ${pathOf(req)}: ${detail}`);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(apiError.code, apiError.message);
  if (req.complete) {
    sendJson(res, apiError.status, body, apiError.headers);
    return;
  }
  if (apiError.status === 408) {
    // The body is not coming (it stalled, or outlived the request's time): answer now and close.
    sendJson(res, 408, body, { ...apiError.headers, Connection: 'close' });
    return;
  }
  const socket = req.socket as IncomingMessage['socket'] | null;
  let answered = false;
  const answer = (close: boolean) => {
    if (answered || res.headersSent || res.destroyed) return;
    answered = true;
    sendJson(res, apiError.status, body, {
      ...apiError.headers,
      ...(close ? { Connection: 'close' } : {}),
    });
  };
  const timer = setTimeout(() => {
    answer(true);
    // The answer is flushed first; a body still arriving after that is cut off.
    if (res.writableFinished) socket?.destroy();
    else res.once('finish', () => socket?.destroy());
  }, DRAIN_WAIT_MS);
  timer.unref();
  req.once('end', () => {
    clearTimeout(timer);
    answer(false);
  });
  req.once('close', () => clearTimeout(timer));
  const declared = Number(req.headers['content-length']);
  if (!(Number.isFinite(declared) && declared <= DRAIN_BEFORE_ANSWER_BYTES)) answer(false);
  req.resume();
}

export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
