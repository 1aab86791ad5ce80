/**
 * DNS rebinding: a page on a name its owner re-points at 127.0.0.1 reaches browser mode with that
 * name in `Host`. Pages, media and the bridge handshake answer only their own address or localhost.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostRefusalMessage, isAllowedHost } from '../../node-lib/loopback-host.js';

function refusal(server: Server, req: IncomingMessage): string | undefined {
  const listening = server.address() as AddressInfo | null;
  if (isAllowedHost(req.headers.host, listening)) return undefined;
  return JSON.stringify({
    error: { code: 'host_not_allowed', message: hostRefusalMessage(listening) },
  });
}

/** Answers 421 with JSON and returns true when the request's Host is not ours. */
export function refuseForeignHost(
  server: Server,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const body = refusal(server, req);
  if (body === undefined) return false;
  res.writeHead(421, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(body);
  return true;
}

/** The same for a WebSocket upgrade, answered on the raw socket before any handshake. */
export function refuseForeignUpgrade(
  server: Server,
  req: IncomingMessage,
  socket: Duplex,
): boolean {
  const body = refusal(server, req);
  if (body === undefined) return false;
  socket.end(
    `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/json\r\nConnection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return true;
}
