/**
 * The browser-mode transport: one WebSocket to the loopback bridge, the launch secret offered as a
 * subprotocol (without it, the browser's session cookie of this launch is the credential; a page
 * with neither is refused at once and says what to open). It reconnects with backoff; calls in flight when the socket drops fail with a coded
 * error (React Query retries them once the socket is back), so nothing waits forever.
 */
import {
  BRIDGE_PROTOCOL,
  SECRET_PROTOCOL_PREFIX,
  ServerMessage,
  SESSION_PATH,
  SESSION_SECRET_HEADER,
  type CallMessage,
  type MessageTransport,
  type ReplyMessage,
} from '@shared/contract/index.js';
import { ConnectionStatus } from './connection-status.js';
import { backoffDelay, NO_SESSION } from './transport-choice.js';

interface Pending {
  message: CallMessage;
  resolve: (reply: ReplyMessage) => void;
  sent: boolean;
}

export interface SocketTransport extends MessageTransport {
  status: ConnectionStatus;
  /** Called on every open after the first: events may have been missed meanwhile. */
  onReconnect(listener: () => void): void;
}

const DROPPED = {
  code: 'bridge_disconnected',
  message: 'The connection to LabelDesk was lost; reconnecting.',
};

function openSession(secret: string): void {
  void fetch(SESSION_PATH, {
    method: 'POST',
    headers: { [SESSION_SECRET_HEADER]: secret },
    credentials: 'same-origin',
    cache: 'no-store',
  }).catch(() => undefined);
}

export function createSocketTransport(url: string, secret: string | null): SocketTransport {
  const status = new ConnectionStatus();
  const pending = new Map<number, Pending>();
  const eventListeners = new Set<(name: string, payload: unknown) => void>();
  const reconnectListeners = new Set<() => void>();
  let socket: WebSocket | null = null;
  let attempt = 0;
  let everOpened = false;

  function failAll(): void {
    for (const [id, p] of pending) {
      p.resolve({ type: 'reply', id, ok: false, error: DROPPED });
    }
    pending.clear();
  }

  function connect(): void {
    status.set(attempt === 0 ? { state: 'connecting' } : status.get());
    const protocols = secret ? [BRIDGE_PROTOCOL, SECRET_PROTOCOL_PREFIX + secret] : BRIDGE_PROTOCOL;
    const ws = new WebSocket(url, protocols);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      status.set({ state: 'open' });
      for (const p of pending.values()) {
        ws.send(JSON.stringify(p.message));
        p.sent = true;
      }
      if (everOpened) for (const l of reconnectListeners) l();
      // The secret worked: trade it for the session cookie a reload or a second tab will use.
      if (secret && !everOpened) openSession(secret);
      everOpened = true;
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let parsed;
      try {
        parsed = ServerMessage.safeParse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'event') {
        for (const l of eventListeners) l(message.name, message.payload);
        return;
      }
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      p.resolve(message);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      failAll();
      // No secret and never connected: no session either; retrying cannot help.
      if (secret === null && !everOpened) {
        status.set({ state: 'unavailable', ...NO_SESSION });
        return;
      }
      const delay = backoffDelay(attempt);
      attempt += 1;
      status.set({ state: 'reconnecting', attempt, retryAt: Date.now() + delay });
      setTimeout(connect, delay);
    };
  }

  connect();

  return {
    status,
    onReconnect: (listener) => reconnectListeners.add(listener),
    request(message) {
      return new Promise<ReplyMessage>((resolve) => {
        const ws = socket;
        if (ws?.readyState === WebSocket.OPEN) {
          pending.set(message.id, { message, resolve, sent: true });
          ws.send(JSON.stringify(message));
        } else if (status.get().state === 'connecting') {
          // The first connection is being made: send once it opens.
          pending.set(message.id, { message, resolve, sent: false });
        } else {
          resolve({ type: 'reply', id: message.id, ok: false, error: DROPPED });
        }
      });
    },
    onEvent(listener) {
      eventListeners.add(listener);
    },
  };
}
