/**
 * The renderer is served from `app://labeldesk/`, a privileged scheme of our own, instead of
 * `file://`: the page gets a real origin that no other local file shares, the `file:` fuse can stay
 * closed, and only files inside the built renderer folder can ever be answered.
 */
import { staticFile } from '../application/browser/static-files.js';
import { rangeResponse } from '../node-lib/range-request.js';
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy.js';
import type { ProtocolLike } from './media-protocol.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'labeldesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** What the main window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registered before `ready`. Standard (an origin, relative URLs), secure (a secure context), fetch
 * and CORS-aware (module scripts); no service workers, no bypassing the CSP.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: true,
    corsEnabled: true,
    allowServiceWorkers: false,
    bypassCSP: false,
  },
};

/** Our policy, plus what only a header can say: no page may frame ours. */
export const APP_PAGE_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
} as const;

function refuse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** The URL path of a request to `app://labeldesk/…`, or undefined for any other host or form. */
export function appPathOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.hostname !== APP_HOST) return undefined;
  if (parsed.username || parsed.password || parsed.port) return undefined;
  return parsed.pathname;
}

/**
 * Answers one request of the app scheme from `rendererDir` (out/renderer). Read-only; a path that
 * is missing, a folder, or leaves the folder (dot segments, encoded slashes) is a 404.
 */
export async function answerAppRequest(request: Request, rendererDir: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return refuse(405, 'method_not_allowed', 'The app is read-only.');
  }
  const path = appPathOf(request.url);
  if (path === undefined) return refuse(404, 'not_found', 'There is no such page.');
  const file = await staticFile(rendererDir, path);
  if (!file) return refuse(404, 'not_found', 'There is no such page.');
  const answer = await rangeResponse(file, request.headers.get('range'), request.method);
  for (const [name, value] of Object.entries(APP_PAGE_HEADERS)) answer.headers.set(name, value);
  return answer;
}

/** Serves the app scheme; returns the function that stops serving it. */
export function handleAppProtocol(protocol: ProtocolLike, rendererDir: string): () => void {
  protocol.handle(APP_SCHEME, (request) =>
    answerAppRequest(request, rendererDir).catch(() =>
      refuse(500, 'internal_error', 'The page could not be read.'),
    ),
  );
  return () => protocol.unhandle(APP_SCHEME);
}
