/**
 * `labeldesk-media://thumb/<id>`, `file/<id>` and `proxy/<id>` (a clip made playable): thumbnails
 * and media by library id only. The renderer never names a path; anything but a plain numeric id is refused before the
 * application is asked, and Range requests are answered here so clips can seek.
 */
import type { MediaSource, MediaVariant } from '../application/application-types.js';
import { rangeResponse } from '../node-lib/range-request.js';

export const MEDIA_SCHEME = 'labeldesk-media';
/** What the renderer prefixes media URLs with (`ApplicationOptions.mediaBase`). */
export const MEDIA_BASE = `${MEDIA_SCHEME}://`;

/** Registered before the app is ready: a standard, secure scheme that can stream and be fetched. */
export const MEDIA_SCHEME_PRIVILEGES = {
  scheme: MEDIA_SCHEME,
  privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true },
};

/** The part of Electron's `protocol` module the media scheme uses. */
export interface ProtocolLike {
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
  unhandle(scheme: string): void;
}

const VARIANTS: ReadonlySet<string> = new Set<MediaVariant>(['thumb', 'file', 'proxy']);
const ID_PATH = /^\/([1-9][0-9]{0,14})$/;

function refuse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** The variant and id a media URL names, or undefined if it is not exactly `<scheme>://<variant>/<id>`. */
export function parseMediaUrl(url: string): { variant: MediaVariant; id: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${MEDIA_SCHEME}:` || !VARIANTS.has(parsed.hostname)) return undefined;
  if (parsed.username || parsed.password || parsed.port) return undefined;
  // The raw URL must already be the normalised one: no dot segments, no encodings to unpack.
  const raw = url.slice(`${MEDIA_SCHEME}://${parsed.hostname}`.length).split(/[?#]/)[0];
  const match = ID_PATH.exec(parsed.pathname);
  if (!match || raw !== parsed.pathname) return undefined;
  return { variant: parsed.hostname as MediaVariant, id: Number(match[1]) };
}

/** Answers one media request from the application's media source. */
export async function answerMediaRequest(request: Request, media: MediaSource): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return refuse(405, 'method_not_allowed', 'Media is read-only.');
  }
  const target = parseMediaUrl(request.url);
  if (!target) {
    return refuse(
      400,
      'bad_media_url',
      'Media is addressed as thumb/<id>, file/<id> or proxy/<id>.',
    );
  }
  const file = await media.resolve(target.variant, target.id);
  if (!file) return refuse(404, 'not_found', `There is no media with id ${target.id}.`);
  return rangeResponse(file, request.headers.get('range'), request.method);
}

/** Serves the media scheme; returns the function that stops serving it. */
export function handleMediaProtocol(protocol: ProtocolLike, media: MediaSource): () => void {
  protocol.handle(MEDIA_SCHEME, (request) =>
    answerMediaRequest(request, media).catch(() =>
      refuse(500, 'internal_error', 'The media could not be read.'),
    ),
  );
  return () => protocol.unhandle(MEDIA_SCHEME);
}
