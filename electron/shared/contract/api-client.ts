/**
 * The renderer's one `api`: calls and events over any message transport (the preload's IPC bridge
 * or the browser-mode WebSocket). The UI never knows which one it is talking through.
 */
import { LabelDeskError } from './common-schemas.js';
import type { CallMessage, ReplyMessage } from './envelope.js';
import {
  EVENTS,
  isEventName,
  type EventName,
  type EventPayload,
  type LabelDeskApi,
} from './labeldesk-api.js';

/** Sends a call and resolves with its reply; pushes events to `onEvent`. */
export interface MessageTransport {
  request(message: CallMessage): Promise<ReplyMessage>;
  onEvent(listener: (name: string, payload: unknown) => void): void;
}

export function createApiClient(transport: MessageTransport): LabelDeskApi {
  let nextId = 1;
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  transport.onEvent((name, payload) => {
    if (!isEventName(name)) return;
    const parsed = EVENTS[name].safeParse(payload);
    if (!parsed.success) return;
    for (const l of listeners.get(name) ?? []) l(parsed.data as never);
  });
  return {
    async call(name, input) {
      const reply = await transport.request({ type: 'call', id: nextId++, name, input });
      if (!reply.ok) throw new LabelDeskError(reply.error.code, reply.error.message);
      // Validated once, where it is made: dispatchCall parses every result with its schema (and
      // strips what the contract does not name) before it is sent, so it is not parsed again here.
      return reply.result as never;
    },
    on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  };
}
