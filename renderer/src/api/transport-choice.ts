/**
 * Which transport carries the contract: the Electron preload's bridge when it exists, otherwise the
 * browser-mode WebSocket, whose launch secret arrives once in the address's fragment. Without the
 * secret (a reload, a second tab) the socket relies on the session cookie the page got for the
 * secret; the server refuses it when there is none.
 */

export type TransportChoice = { kind: 'electron' } | { kind: 'browser'; secret: string | null };

/** What a page without the secret and without this launch's session is told. */
export const NO_SESSION = {
  code: 'no_launch_secret',
  message:
    'This page has no launch secret: open the address `labeldesk app` printed (the one ending in #secret=…). Once opened, reloads and new tabs of the same browser keep working until LabelDesk stops.',
};

/** Reads `secret=...` from a fragment like `#secret=abc` (other fragment fields are ignored). */
export function parseLaunchSecret(hash: string): string | null {
  const fields = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const secret = fields.get('secret');
  // The server's secrets are base64url; anything else cannot be one and must not reach a header.
  return secret && /^[A-Za-z0-9_-]{16,200}$/.test(secret) ? secret : null;
}

/** The fragment with the secret taken out ('' when nothing else was in it). */
export function hashWithoutSecret(hash: string): string {
  const fields = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  fields.delete('secret');
  const rest = fields.toString();
  return rest ? `#${rest}` : '';
}

export function chooseTransport(hasPreload: boolean, hash: string): TransportChoice {
  if (hasPreload) return { kind: 'electron' };
  return { kind: 'browser', secret: parseLaunchSecret(hash) };
}

/** `ws://host/bridge` for an http page, `wss://` for https. */
export function bridgeUrl(protocol: string, host: string): string {
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/bridge`;
}

/** Delay before reconnect attempt `attempt` (0-based): doubling from 250 ms, capped at 8 s. */
export function backoffDelay(attempt: number): number {
  return Math.min(8000, 250 * 2 ** Math.max(0, Math.min(attempt, 10)));
}
