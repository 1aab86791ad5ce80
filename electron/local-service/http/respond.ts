import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

/** Unread request bodies up to this size are drained before an early error answer. */
const DRAIN_BEFORE_ANSWER_BYTES = 4 * 1024 * 1024;

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

/**
 * Sends an error body. When the request body has not been read (an early 4xx during an upload), the
 * connection is closed after the answer so that a client mid-upload is not left writing into nothing.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  log: (line: string) => void,
): void {
  const apiError =
    err instanceof ApiError
      ? err
      : new ApiError(500, 'internal_error', 'The service failed to handle this request.');
  if (!(err instanceof ApiError))
    log(`internal error on ${req.method} ${pathOf(req)}: ${String(err)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const unread = !req.complete;
  const headers: Record<string, string> = { ...apiError.headers };
  const body = { error: { code: apiError.code, message: apiError.message } };
  const declared = Number(req.headers['content-length']);
  if (unread && Number.isFinite(declared) && declared <= DRAIN_BEFORE_ANSWER_BYTES) {
    // A small unread body is read to its end first: answering mid-upload and closing can make the
    // client see a reset instead of the answer.
    req.once('end', () => sendJson(res, apiError.status, body, headers));
    req.resume();
    return;
  }
  if (unread) headers['Connection'] = 'close';
  sendJson(res, apiError.status, body, headers);
  if (unread) drainThenClose(req);
}

/** Discards what is left of an unread upload for a short while, then drops the connection. */
function drainThenClose(req: IncomingMessage): void {
  const timer = setTimeout(() => req.socket.destroy(), 2000);
  timer.unref();
  req.on('end', () => clearTimeout(timer));
  req.resume();
}

export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
