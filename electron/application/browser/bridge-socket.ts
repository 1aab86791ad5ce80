/**
 * The loopback WebSocket bridge: the same call/reply/event envelope Electron IPC carries. The
 * handshake is checked before any upgrade (the secret or this launch's session cookie, and the
 * Origin), so a refused client gets a 403 and never a 101.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  BRIDGE_PROTOCOL,
  CallMessage,
  dispatchCall,
  SECRET_PROTOCOL_PREFIX,
} from '../../shared/contract/index.js';
import type { Application } from '../application-types.js';
import { sameSecret } from './launch-secret.js';
import type { SessionCookie } from './session-cookie.js';

export interface BridgeOptions {
  app: Application;
  secret: string;
  /** Accepted instead of the secret: a reload or a second tab of the same browser. */
  session: SessionCookie;
  /** The app's own origin (`http://127.0.0.1:PORT`): any other Origin is refused. */
  origin: () => string;
  log: (line: string) => void;
}

/**
 * Calls are small (a page of 200 items is ~45 KB; a selection of 200k ids ~1.5 MB). Up to this
 * size an oversized argument gets a coded `invalid_arguments` answer from its schema; only a
 * message beyond it closes the socket.
 */
const MAX_MESSAGE_BYTES = 8 << 20;

export function createBridge(o: BridgeOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
  });
  const sockets = new Set<WebSocket>();
  const unsubscribe = o.app.onEvent((name, payload) => {
    const text = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  function refuse(socket: Duplex, status: 403 | 400, reason: string): void {
    o.log(`bridge: refused a connection (${reason})`);
    socket.end(
      `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Request'}\r\n` +
        'Connection: close\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n',
    );
  }

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const secret = offered
      .find((p) => p.startsWith(SECRET_PROTOCOL_PREFIX))
      ?.slice(SECRET_PROTOCOL_PREFIX.length);
    if (!sameSecret(secret, o.secret) && !o.session.accepts(req)) {
      return refuse(socket, 403, 'no valid secret or session');
    }
    if (req.headers.origin !== o.origin()) return refuse(socket, 403, 'foreign origin');
    if (!offered.includes(BRIDGE_PROTOCOL)) return refuse(socket, 400, 'no bridge protocol');
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  }

  function attach(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text only');
      let message: CallMessage;
      try {
        const parsed = CallMessage.safeParse(JSON.parse(data.toString()));
        if (!parsed.success) return ws.close(1008, 'not a call message');
        message = parsed.data;
      } catch {
        return ws.close(1007, 'not JSON');
      }
      void dispatchCall(o.app.handlers, message.id, message.name, message.input).then((reply) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
      });
    });
  }

  return {
    upgrade,
    close(): void {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
  };
}
