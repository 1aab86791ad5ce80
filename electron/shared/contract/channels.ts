/**
 * The names the transports agree on, with no runtime dependency: the sandboxed preload imports
 * them without pulling zod into its bundle. `envelope.ts` re-exports them with the message shapes.
 */

/** The prefix of every IPC channel: `labeldesk:call`, `labeldesk:event`. */
export const CHANNEL_PREFIX = 'labeldesk:';
export const CALL_CHANNEL = `${CHANNEL_PREFIX}call`;
export const EVENT_CHANNEL = `${CHANNEL_PREFIX}event`;
/** The WebSocket subprotocol the bridge speaks; the launch secret travels as a second one. */
export const BRIDGE_PROTOCOL = 'labeldesk.v1';
export const SECRET_PROTOCOL_PREFIX = 'secret.';
/** Browser mode: a POST here with the launch secret in this header sets the session cookie. */
export const SESSION_PATH = '/session';
export const SESSION_SECRET_HEADER = 'X-LabelDesk-Secret';
