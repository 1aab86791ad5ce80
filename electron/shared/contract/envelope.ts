/**
 * The message envelope shared by the browser bridge (WebSocket) and Electron IPC: a call with an id,
 * its answer (a result or a coded error), and events pushed by the application layer.
 */
import { ErrorBody } from './common-schemas.js';
import { z } from './zod.js';

export {
  BRIDGE_PROTOCOL,
  CALL_CHANNEL,
  CHANNEL_PREFIX,
  EVENT_CHANNEL,
  SECRET_PROTOCOL_PREFIX,
  SESSION_PATH,
  SESSION_SECRET_HEADER,
} from './channels.js';

export const CallMessage = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(100),
  input: z.unknown(),
});
export type CallMessage = z.infer<typeof CallMessage>;

export const ReplyMessage = z.union([
  z.object({ type: z.literal('reply'), id: z.number(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('reply'), id: z.number(), ok: z.literal(false), error: ErrorBody }),
]);
export type ReplyMessage = z.infer<typeof ReplyMessage>;

export const EventMessage = z.object({
  type: z.literal('event'),
  name: z.string(),
  payload: z.unknown(),
});
export type EventMessage = z.infer<typeof EventMessage>;

export const ServerMessage = z.union([ReplyMessage, EventMessage]);
