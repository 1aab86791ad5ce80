/**
 * Browser mode: the built renderer, the WebSocket bridge and the media routes on loopback. The
 * launch secret guards everything but the static files; it is printed once, in the URL's fragment
 * (never sent to the server in a request line, so never in any access log), and kept nowhere else.
 * The page trades it for this launch's session cookie (session-cookie.ts), so reloads keep working.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../../node-lib/app-paths.js';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy.js';
import { SESSION_PATH } from '../../shared/contract/index.js';
import type { Application, ApplicationOptions, MediaVariant } from '../application-types.js';
import { createApplication } from '../create-application.js';
import { createBridge } from './bridge-socket.js';
import { refuseForeignHost, refuseForeignUpgrade } from './host-guard.js';
import { newLaunchSecret, sameSecret } from './launch-secret.js';
import { serveFile } from './serve-file.js';
import { sessionCookie } from './session-cookie.js';
import { staticFile } from './static-files.js';

export interface BrowserModeOptions extends Omit<
  ApplicationOptions,
  'transport' | 'mediaBase' | 'host'
> {
  /** Address to bind (loopback by default). */
  bindHost?: string;
  port?: number;
  /** Folder of the built renderer (default: out/renderer of the package). */
  rendererDir?: string;
}

export interface BrowserMode {
  /** The URL to open, with the launch secret in its fragment. */
  url: string;
  origin: string;
  app: Application;
  close(): Promise<void>;
}

const MEDIA_ROUTE = /^\/media\/([A-Za-z0-9_-]+)\/(thumb|file|proxy)\/([0-9]{1,15})$/;

/** The app's one policy, with connect-src narrowed to this server's own socket. */
function csp(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return `${CONTENT_SECURITY_POLICY.replace(/connect-src [^;]+/, `connect-src 'self' ${ws}`)}; frame-ancestors 'none'`;
}

export async function startBrowserMode(options: BrowserModeOptions = {}): Promise<BrowserMode> {
  const { bindHost = '127.0.0.1', port = 0, rendererDir: givenDir, ...appOptions } = options;
  const secret = newLaunchSecret();
  // Media URLs carry their own token, so the launch secret never appears in a request line.
  const mediaToken = newLaunchSecret();
  const rendererDir = givenDir ?? join(packageRoot(), 'out', 'renderer');
  const log = options.log ?? (() => undefined);
  let origin = '';
  const app = await createApplication({
    ...appOptions,
    transport: 'browser',
    mediaBase: `/media/${mediaToken}/`,
  });
  let boundPort = 0;
  const session = sessionCookie({ secret, origin: () => origin, port: () => boundPort });
  const bridge = createBridge({ app, secret, session, origin: () => origin, log });

  const server = createServer((req, res) => {
    if (refuseForeignHost(server, req, res)) return;
    void route(req, res).catch((err: unknown) => {
      log(`browser mode: ${(err as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ((req.url ?? '').split('?')[0] === SESSION_PATH) return session.open(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const urlPath = (req.url ?? '/').split('?')[0] ?? '/';
    const media = MEDIA_ROUTE.exec(urlPath);
    if (media) {
      const [, token, variant, id] = media;
      if (!sameSecret(token, mediaToken) || crossSite(req)) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden');
        return;
      }
      const file = await app.media.resolve(variant as MediaVariant, Number(id));
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
      }
      await serveFile(req, res, file, {
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      return;
    }
    if (urlPath.startsWith('/media/')) {
      res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden');
      return;
    }
    const file = await staticFile(rendererDir, urlPath);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    await serveFile(req, res, file, {
      'Content-Security-Policy': csp(origin),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
    });
  }

  server.on('upgrade', (req, socket, head) => {
    if (refuseForeignUpgrade(server, req, socket)) return;
    if ((req.url ?? '').split('?')[0] !== '/bridge') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    bridge.upgrade(req, socket, head);
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, bindHost, () => resolve());
    });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  boundPort = address.port;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${shownHost}:${address.port}`;
  return {
    url: `${origin}/#secret=${secret}`,
    origin,
    app,
    async close() {
      bridge.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
    },
  };
}

/** A media request made by another site (Fetch Metadata): refused even with the token. */
function crossSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
