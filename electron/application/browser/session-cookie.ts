/**
 * Browser mode's per-launch session cookie. A page that holds the launch secret posts it (in a
 * header, never in the address) to SESSION_PATH and gets the cookie; later bridge handshakes of
 * the same browser offer the cookie instead of the secret, so F5 and a second tab keep working.
 * Host-only, HttpOnly, SameSite=Strict and without Max-Age: it dies with the browser session, no
 * script reads it, and no other site sends it. Cookies ignore the port, so the name carries it:
 * two launches on two ports never overwrite each other's session. Its value is random per launch
 * and kept only in memory, so a cookie of an earlier launch never matches.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SESSION_SECRET_HEADER } from '../../shared/contract/index.js';
import { newLaunchSecret, sameSecret } from './launch-secret.js';

export interface SessionCookie {
  /** True when the request carries this launch's session. */
  accepts(req: IncomingMessage): boolean;
  /** POST SESSION_PATH: 204 with the cookie for the secret from the app's own origin, else 403. */
  open(req: IncomingMessage, res: ServerResponse): void;
}

export function sessionCookie(o: {
  secret: string;
  origin: () => string;
  port: () => number;
}): SessionCookie {
  const value = newLaunchSecret();
  const name = () => `labeldesk_session_${o.port()}`;
  return {
    accepts(req) {
      const given = cookieValue(req.headers.cookie, name());
      return given !== undefined && sameSecret(given, value);
    },
    open(req, res) {
      const given = req.headers[SESSION_SECRET_HEADER.toLowerCase()];
      const proved = typeof given === 'string' && sameSecret(given, o.secret);
      if (req.method !== 'POST' || !proved || req.headers.origin !== o.origin()) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden');
        return;
      }
      res
        .writeHead(204, {
          'Set-Cookie': `${name()}=${value}; Path=/; HttpOnly; SameSite=Strict`,
          'Cache-Control': 'no-store',
        })
        .end();
    },
  };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
