import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { pathOf, sendError, setCors } from './respond.js';

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
  requestTimeoutMs: number;
  log: (line: string) => void;
}

/** A node:http server over a small route table; every answer carries CORS headers. */
export function createRoutedServer(routes: readonly Route[], options: ServerOptions): Server {
  const exact = new Map<string, Route>();
  const patterns: Route[] = [];
  for (const r of routes) {
    if (typeof r.path === 'string') exact.set(`${r.method} ${r.path}`, r);
    else patterns.push(r);
  }
  const server = createServer((req, res) => {
    setCors(res);
    const path = pathOf(req);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    let route = exact.get(`${req.method} ${path}`);
    let params: string[] = [];
    if (!route) {
      for (const r of patterns) {
        const m = r.method === req.method ? (r.path as RegExp).exec(path) : null;
        if (m) {
          route = r;
          params = m.slice(1).map((p) => decodeURIComponent(p ?? ''));
          break;
        }
      }
    }
    if (!route) {
      const known = routes.some((r) =>
        typeof r.path === 'string' ? r.path === path : r.path.test(path),
      );
      const err = known
        ? new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`)
        : new ApiError(404, 'not_found', `There is no endpoint at ${path}.`);
      sendError(req, res, err, options.log);
      return;
    }
    try {
      const done = route.handler(req, res, params);
      if (done) done.catch((err: unknown) => sendError(req, res, err, options.log));
    } catch (err) {
      sendError(req, res, err, options.log);
    }
  });
  server.requestTimeout = options.requestTimeoutMs;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 10_000;
  return server;
}
