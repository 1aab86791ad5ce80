import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostRefusalMessage, isAllowedHost } from '../../node-lib/loopback-host.js';
import { ApiError, badRequest } from './api-error.js';
import { answerOnSocket, handleClientError } from './client-error.js';
import { pathOf, sendError, setCors } from './respond.js';
import { guardConnections, watchBodyStall } from './socket-guards.js';

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: string[],
) => Promise<void> | void;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string | RegExp;
  handler: Handler;
}

export interface ServerOptions {
  /** The longest a whole exchange may take, from the request's first byte to the end of its answer. */
  requestTimeoutMs: number;
  /** The longest the request line and headers may take to arrive. */
  headersTimeoutMs: number;
  /** The longest a request body may go without a byte before it is answered 408. */
  bodyIdleTimeoutMs: number;
  /** Open connections past this are answered 503 and closed. */
  maxConnections: number;
  log: (line: string) => void;
}

/** Paths are echoed in error messages; a hostile one is not echoed whole. */
const shown = (path: string) => (path.length > 120 ? `${path.slice(0, 120)}…` : path);

/** A path parameter, percent-decoded; malformed encodings are the client's mistake, not a crash. */
function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest('malformed_path', 'The path contains an invalid percent-encoding.');
  }
}

function matchRoute(
  routes: readonly Route[],
  exact: ReadonlyMap<string, Route>,
  method: string,
  path: string,
): { route: Route; params: string[] } {
  const hit = exact.get(`${method} ${path}`);
  if (hit) return { route: hit, params: [] };
  for (const r of routes) {
    if (typeof r.path === 'string' || r.method !== method) continue;
    const m = r.path.exec(path);
    if (m) return { route: r, params: m.slice(1).map((p) => decodeParam(p ?? '')) };
  }
  const allowed = routes
    .filter((r) => (typeof r.path === 'string' ? r.path === path : r.path.test(path)))
    .map((r) => r.method);
  if (allowed.length === 0)
    throw new ApiError(404, 'not_found', `There is no endpoint at ${shown(path)}.`);
  throw new ApiError(
    405,
    'method_not_allowed',
    `${method} is not allowed on ${shown(path)}; use ${allowed.join(' or ')}.`,
    { Allow: [...allowed, 'OPTIONS'].join(', ') },
  );
}

/**
 * A node:http server over a small route table. Every request is answered within a bounded time,
 * and no exception on its path can stop the process: each request runs under one guard that turns
 * anything thrown into a JSON error answer (500 for the unexpected, logged).
 */
export function createRoutedServer(routes: readonly Route[], options: ServerOptions): Server {
  const { log, requestTimeoutMs, bodyIdleTimeoutMs } = options;
  const headersTimeoutMs = Math.min(options.headersTimeoutMs, requestTimeoutMs);
  const checkEveryMs = Math.max(50, Math.min(500, headersTimeoutMs / 20));
  const exact = new Map<string, Route>();
  for (const r of routes) if (typeof r.path === 'string') exact.set(`${r.method} ${r.path}`, r);
  // The latest response on each connection: a parser error must not write into or before it.
  const current = new WeakMap<Duplex, ServerResponse>();

  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      // Node checks both timeouts only every `checkEveryMs`: its limit is set that much earlier so
      // that a slow header sender is closed within the stated limit, not one period after it.
      headersTimeout: headersTimeoutMs - checkEveryMs,
      keepAliveTimeout: 10_000,
      connectionsCheckingInterval: checkEveryMs,
      // Node's own refusal of a missing Host has no body: the route guard answers it instead.
      requireHostHeader: false,
    },
    (req, res) => {
      const fail = (err: unknown) => {
        try {
          sendError(req, res, err, log);
        } catch (sendErr) {
          log(`could not answer ${req.method} ${shown(pathOf(req))}: ${String(sendErr)}`);
          res.destroy();
        }
      };
      const socket = req.socket;
      current.set(socket, res);
      const deadline = setTimeout(() => {
        fail(
          new ApiError(408, 'request_timeout', 'The request was not completed in time.', {
            Connection: 'close',
          }),
        );
      }, requestTimeoutMs);
      deadline.unref();
      const stopStallWatch = watchBodyStall(req, bodyIdleTimeoutMs, () =>
        fail(
          new ApiError(
            408,
            'body_stalled',
            `No byte of the request body arrived for ${Math.round(bodyIdleTimeoutMs / 1000)} s.`,
            { Connection: 'close' },
          ),
        ),
      );
      res.once('close', () => {
        clearTimeout(deadline);
        stopStallWatch();
      });
      try {
        setCors(res);
        if (req.httpVersion === '1.1' && req.headers.host === undefined) {
          throw badRequest('missing_host', 'HTTP/1.1 requests must carry a Host header.');
        }
        const listening = server.address() as AddressInfo | null;
        if (!isAllowedHost(req.headers.host, listening)) {
          throw new ApiError(421, 'host_not_allowed', hostRefusalMessage(listening));
        }
        if (req.method === 'OPTIONS') {
          res.writeHead(204).end();
          return;
        }
        const { route, params } = matchRoute(routes, exact, req.method ?? '', pathOf(req));
        const done = route.handler(req, res, params);
        if (done) done.catch(fail);
      } catch (err) {
        fail(err);
      }
    },
  );
  guardConnections(
    server,
    { max: options.maxConnections, headersTimeoutMs, marginMs: checkEveryMs },
    log,
  );
  server.on('clientError', (err: Error, socket: Duplex) => {
    const refuse = () => {
      try {
        handleClientError(err, socket, log);
      } catch {
        socket.destroy();
      }
    };
    const last = current.get(socket);
    if (!last || last.writableFinished) return refuse();
    // The error is in the body of a request already routed: if its answer has started, the client
    // broke off a request that is answered; otherwise the parser's answer replaces the route's.
    if (!last.req.complete) return last.headersSent ? socket.destroy() : refuse();
    // A later (pipelined) request is bad while the previous answer is still on its way: answer in order.
    last.once('close', refuse);
  });
  // Node answers an unknown Expect with a bodiless 417 unless the server handles it.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    setCors(res);
    sendError(
      req,
      res,
      new ApiError(417, 'expectation_failed', 'Only "Expect: 100-continue" is supported.'),
      log,
    );
  });
  // No tunnels here; without this handler Node drops a CONNECT without a word.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    answerOnSocket(socket, 405, 'method_not_allowed', 'CONNECT is not supported.'),
  );
  return server;
}
