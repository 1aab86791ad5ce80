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

/** Past `max` open connections, a new one is answered 503 with Retry-After and closed at once. */
export function capConnections(server: Server, max: number, log: (line: string) => void): void {
  let open = 0;
  let refusedSince = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      // One line per burst, not per refused socket: a flood must not flood the log.
      if (refusedSince++ === 0) log(`refusing connections: ${max} are open`);
      answerOnSocket(
        socket,
        503,
        'too_many_connections',
        `The service holds at most ${max} connections at once; try again shortly.`,
        { 'Retry-After': '1' },
      );
      return;
    }
    open += 1;
    if (refusedSince > 0) {
      log(`accepting connections again after refusing ${refusedSince}`);
      refusedSince = 0;
    }
    socket.once('close', () => (open -= 1));
  });
}
