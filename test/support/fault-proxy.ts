/**
 * A loopback HTTP proxy in front of a service that misbehaves on demand, one request at a time:
 * canned statuses (429 + Retry-After, 503…), connections dropped before or after the upload (with
 * the service seeing the request or not), answers that never come, rewritten JSON answers. Every
 * request is logged so tests can tell what reached the service.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  /** Answered by the proxy once the whole request body is read; the service never sees it. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** The whole body is read, then the connection is dropped; `forward` lets the service handle it first. */
  | { kind: 'drop-after-upload'; forward: boolean }
  /** The connection is dropped once `afterBytes` of the body arrived; the service never sees it. */
  | { kind: 'drop-before-upload'; afterBytes: number }
  /** The whole body is read and no answer ever comes. */
  | { kind: 'hang' }
  /** Forwarded; the service's JSON answer is replaced by `rewrite(answer)` (a string is sent as is). */
  | { kind: 'rewrite'; rewrite: (body: any) => unknown };

export interface LoggedRequest {
  method: string;
  path: string;
  fault?: Fault['kind'];
  bodyBytes: number;
  /** Whether the service received it. */
  forwarded: boolean;
  /** The service's answer to it, once it came (also when the client had gone by then); 0: none. */
  status?: number;
}

export interface FaultProxy {
  url: string;
  requests: LoggedRequest[];
  /** TCP connections accepted from clients (keep-alive reuse keeps this low). */
  connections(): number;
  /** The next `times` requests matching method and path (exact string or RegExp) get `fault`. */
  inject(method: string, path: string | RegExp, fault: Fault, times?: number): void;
  /** Requests that reached the service, by method and exact path or RegExp. */
  forwarded(method: string, path: string | RegExp): number;
  close(): Promise<void>;
}

interface Rule {
  method: string;
  path: string | RegExp;
  fault: Fault;
  left: number;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length'];
const matches = (path: string, want: string | RegExp) =>
  typeof want === 'string' ? path === want : want.test(path);

function copyHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined && !HOP_BY_HOP.includes(k)) out[k] = v;
  }
  return out;
}

function readBody(req: IncomingMessage, log: LoggedRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      log.bodyBytes += c.length;
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // A connection dropped mid-body (by a fault or by the client) ends this request's handling.
    req.on('close', () => {
      if (!req.complete) reject(new Error('request body cut off'));
    });
  });
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const rules: Rule[] = [];
  const requests: LoggedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const out = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            agent,
            headers: { ...copyHeaders(req.headers), 'content-length': String(body.length) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 502,
                headers: res.headers,
                body: Buffer.concat(chunks),
              }),
            );
            res.on('error', reject);
          },
        );
        out.on('error', reject);
        out.end(body);
      },
    );

  const send = (
    res: ServerResponse,
    status: number,
    headers: Record<string, any>,
    body: Buffer,
  ) => {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const log: LoggedRequest = { method: req.method ?? '', path, bodyBytes: 0, forwarded: false };
    requests.push(log);
    const rule = rules.find((r) => r.left > 0 && r.method === req.method && matches(path, r.path));
    if (rule) rule.left--;
    const fault = rule?.fault;
    if (fault) log.fault = fault.kind;
    if (fault?.kind === 'drop-before-upload') {
      req.on('data', () => {
        if (log.bodyBytes >= fault.afterBytes) req.socket.destroy();
      });
    }
    const body = await readBody(req, log);
    if (fault?.kind === 'status') {
      const text =
        typeof fault.body === 'string'
          ? fault.body
          : JSON.stringify(
              fault.body ?? {
                error: { code: `injected_${fault.status}`, message: `Injected ${fault.status}.` },
              },
            );
      send(
        res,
        fault.status,
        { 'content-type': 'application/json', ...fault.headers },
        Buffer.from(text),
      );
      return;
    }
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'drop-after-upload' && !fault.forward) {
      req.socket.destroy();
      return;
    }
    log.forwarded = true;
    const answer = await forward(req, body).catch((err: unknown) => {
      log.status = 0;
      throw err;
    });
    log.status = answer.status;
    if (fault?.kind === 'drop-after-upload') {
      req.socket.destroy();
      return;
    }
    let out = answer.body;
    if (fault?.kind === 'rewrite') {
      const next = fault.rewrite(JSON.parse(answer.body.toString('utf8')));
      out = Buffer.from(typeof next === 'string' ? next : JSON.stringify(next));
    }
    send(res, answer.status, copyHeaders(answer.headers), out);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    inject: (method, path, fault, times = 1) => {
      rules.push({ method, path, fault, left: times });
    },
    forwarded: (method, path) =>
      requests.filter((r) => r.forwarded && r.method === method && matches(r.path, path)).length,
    close: async () => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
