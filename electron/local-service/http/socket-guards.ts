/**
 * Guards on connections rather than requests: a body that stops arriving, and more open connections
 * than the service will hold. Both answer with the JSON error body, as every refusal does.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { answerOnSocket } from './client-error.js';

/**
 * Calls `onStall` once no byte has arrived on the request's socket for `idleMs` while its body is
 * still incomplete. Bytes are counted on the socket (`bytesRead`), so the body stream is never
 * switched to flowing mode behind the handler's back. Returns the function that stops watching.
 */
export function watchBodyStall(
  req: IncomingMessage,
  idleMs: number,
  onStall: () => void,
): () => void {
  const socket = req.socket as Socket | null;
  if (!socket) return () => undefined;
  let seen = socket.bytesRead;
  let since = performance.now();
  const timer = setInterval(
    () => {
      if (req.complete || socket.destroyed) return stop();
      if (socket.bytesRead !== seen) {
        seen = socket.bytesRead;
        since = performance.now();
        return;
      }
      if (performance.now() - since < idleMs) return;
      stop();
      onStall();
    },
    Math.max(50, Math.min(1000, idleMs / 5)),
  );
  timer.unref();
  const stop = () => clearInterval(timer);
  return stop;
}

export interface ConnectionLimits {
  /** Open connections past this are answered 503 and closed at once. */
  max: number;
  /** A connection's first request line and headers must arrive within this, counted from connect. */
  headersTimeoutMs: number;
  /** How much earlier than the limit to act, so that the answer is out within it. */
  marginMs: number;
}

/**
 * Caps open connections, and holds each new connection to the header limit from the moment it
 * opens. Node measures that limit from the first byte and checks it only periodically, so a client
 * that waits before its first byte could otherwise hold the socket for nearly twice the limit.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  log: (line: string) => void,
): void {
  let open = 0;
  let refusedSince = 0;
  const firstHeaders = new WeakMap<Socket, NodeJS.Timeout>();
  // Every way a request's headers can complete: from then on Node's own checks take over.
  const headersArrived = (req: IncomingMessage) => {
    clearTimeout(firstHeaders.get(req.socket));
    firstHeaders.delete(req.socket);
  };
  // Only events the router already listens to: a 'checkContinue' or 'upgrade' listener would change
  // how Node answers those requests.
  for (const event of ['request', 'checkExpectation', 'connect'])
    server.prependListener(event, headersArrived);
  server.on('connection', (socket: Socket) => {
    if (open >= limits.max) {
      // One line per burst, not per refused socket: a flood must not flood the log.
      if (refusedSince++ === 0) log(`refusing connections: ${limits.max} are open`);
      answerOnSocket(
        socket,
        503,
        'too_many_connections',
        `The service holds at most ${limits.max} connections at once; try again shortly.`,
        { 'Retry-After': '1' },
      );
      return;
    }
    open += 1;
    if (refusedSince > 0) {
      log(`accepting connections again after refusing ${refusedSince}`);
      refusedSince = 0;
    }
    const timer = setTimeout(() => {
      firstHeaders.delete(socket);
      if (!socket.destroyed)
        answerOnSocket(socket, 408, 'request_timeout', 'The request did not arrive in time.');
    }, limits.headersTimeoutMs - limits.marginMs);
    timer.unref();
    firstHeaders.set(socket, timer);
    socket.once('close', () => {
      open -= 1;
      clearTimeout(timer);
    });
  });
}
