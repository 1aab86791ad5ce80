/** Debian Chromium through playwright-core, and a page served from an origin of its own. */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface PageOrigin {
  /** e.g. http://127.0.0.1:PORT — a different origin from the service, so every call is CORS. */
  url: string;
  close(): Promise<void>;
}

/** Serves `html` at `/` and the given files at `/files/<name>`, on a port of its own. */
export async function servePageOrigin(
  html: string,
  files: Record<string, { path: string; type: string }> = {},
): Promise<PageOrigin> {
  const server = createServer((req, res) => {
    const name = req.url?.startsWith('/files/') ? decodeURIComponent(req.url.slice(7)) : undefined;
    const file = name === undefined ? undefined : files[name];
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    } else if (file) {
      readFile(file.path).then(
        (data) => {
          res.writeHead(200, { 'content-type': file.type, 'content-length': data.length });
          res.end(data);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
