import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaSource, MediaVariant } from '../../../electron/application/application-types.js';
import {
  handleMediaProtocol,
  MEDIA_SCHEME,
  parseMediaUrl,
} from '../../../electron/main/media-protocol.js';
import { parseRange } from '../../../electron/node-lib/range-request.js';
import { fakeProtocol } from '../../support/fake-protocol.js';

let dir: string;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
const asked: [MediaVariant, number][] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-media-'));
  writeFileSync(join(dir, 'clip.mp4'), BYTES);
  writeFileSync(join(dir, 'thumb.webp'), BYTES.subarray(0, 10));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const media: MediaSource = {
  async resolve(variant, id) {
    asked.push([variant, id]);
    if (id === 42 && variant === 'file') {
      return { path: join(dir, 'clip.mp4'), contentType: 'video/mp4', size: BYTES.length };
    }
    if (id === 42) return { path: join(dir, 'thumb.webp'), contentType: 'image/webp', size: 10 };
    if (id === 43) return { path: join(dir, 'deleted.mp4'), contentType: 'video/mp4', size: 5 };
    return undefined;
  },
};

/** Registers the scheme on a fake `protocol` and returns a fetch through its handler. */
function serve() {
  const { protocol, handlers, fetchVia } = fakeProtocol();
  const stop = handleMediaProtocol(protocol, media);
  const fetchMedia = (url: string, init?: RequestInit) => fetchVia(MEDIA_SCHEME, url, init);
  return { fetchMedia, stop, handlers };
}

describe('labeldesk-media URLs', () => {
  it('accept exactly <variant>/<numeric id>', () => {
    expect(parseMediaUrl('labeldesk-media://thumb/42')).toEqual({ variant: 'thumb', id: 42 });
    expect(parseMediaUrl('labeldesk-media://file/7?v=2')).toEqual({ variant: 'file', id: 7 });
  });

  it('refuse paths, dot segments, encodings and anything not a positive id', async () => {
    const { fetchMedia } = serve();
    asked.length = 0;
    const refused = [
      'labeldesk-media://file/../../etc/passwd',
      'labeldesk-media://file//etc/passwd',
      'labeldesk-media://file/%2Fetc%2Fpasswd',
      'labeldesk-media://file/42%2F..%2F1',
      'labeldesk-media://file/%34%32',
      'labeldesk-media://file/42/',
      'labeldesk-media://file/42/extra',
      'labeldesk-media://file/-1',
      'labeldesk-media://file/0',
      'labeldesk-media://file/042',
      'labeldesk-media://file/4.2',
      'labeldesk-media://file/1e3',
      'labeldesk-media://file/9999999999999999',
      'labeldesk-media://file/abc',
      'labeldesk-media://file/',
      'labeldesk-media://other/42',
      'labeldesk-media://file:80/42',
      'labeldesk-media:///etc/passwd',
      'labeldesk-media://C:/Windows/win.ini',
    ];
    for (const url of refused) {
      const response = await fetchMedia(url);
      expect(response.status, url).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'bad_media_url' } });
    }
    expect(asked).toEqual([]);
  });

  it('see dot segments already resolved by URL parsing, and still take only an id', async () => {
    // Request (and Chromium, for a standard scheme) canonicalise the URL before the handler runs.
    const { fetchMedia } = serve();
    asked.length = 0;
    expect((await fetchMedia('labeldesk-media://file/a/../42')).status).toBe(200);
    expect((await fetchMedia('labeldesk-media://file/x/../../43')).status).toBe(404);
    expect(asked).toEqual([
      ['file', 42],
      ['file', 43],
    ]);
    // Given raw, as the parser might be by another caller, they are refused outright.
    expect(parseMediaUrl('labeldesk-media://file/a/../42')).toBeUndefined();
    expect(parseMediaUrl('labeldesk-media://file/./42')).toBeUndefined();
    expect(parseMediaUrl('labeldesk-media://user@file/42')).toBeUndefined();
  });

  it('answer 404 for ids the library does not know, or whose file vanished', async () => {
    const { fetchMedia } = serve();
    expect((await fetchMedia('labeldesk-media://file/41')).status).toBe(404);
    expect((await fetchMedia('labeldesk-media://file/43')).status).toBe(404);
  });

  it('are read-only', async () => {
    const { fetchMedia } = serve();
    const response = await fetchMedia('labeldesk-media://file/42', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
  });

  it('stop being served when unhandled', () => {
    const { stop, handlers } = serve();
    stop();
    expect(handlers.has(MEDIA_SCHEME)).toBe(false);
  });
});

describe('Range requests', () => {
  it('answer 200 with the whole file and Accept-Ranges without a Range header', async () => {
    const { fetchMedia } = serve();
    const response = await fetchMedia('labeldesk-media://file/42');
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);
    const thumb = await fetchMedia('labeldesk-media://thumb/42');
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await thumb.arrayBuffer()).byteLength).toBe(10);
  });

  it('answer 206 with Content-Range and exactly the asked bytes', async () => {
    const { fetchMedia } = serve();
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=900-', 900, 999],
      ['bytes=-100', 900, 999],
      ['bytes=990-5000', 990, 999],
      ['bytes=-5000', 0, 999],
      ['bytes=999-999', 999, 999],
    ];
    for (const [range, start, end] of cases) {
      const response = await fetchMedia('labeldesk-media://file/42', { headers: { Range: range } });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
      expect(response.headers.get('content-length')).toBe(String(end - start + 1));
      expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES.subarray(start, end + 1));
    }
  });

  it('answer 416 with the size when the range cannot be satisfied', async () => {
    const { fetchMedia } = serve();
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0']) {
      const response = await fetchMedia('labeldesk-media://file/42', { headers: { Range: range } });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe('bytes */1000');
    }
  });

  it('ignore multiple and malformed ranges and send the whole file', async () => {
    const { fetchMedia } = serve();
    for (const range of [
      'bytes=0-1,5-6',
      'bytes=5-1',
      'items=0-1',
      'bytes=a-b',
      'bytes=-',
      'bytes 0-1',
    ]) {
      const response = await fetchMedia('labeldesk-media://file/42', { headers: { Range: range } });
      expect(response.status, range).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(1000);
    }
  });

  it('answer HEAD with the headers and no body', async () => {
    const { fetchMedia } = serve();
    const response = await fetchMedia('labeldesk-media://file/42', {
      method: 'HEAD',
      headers: { Range: 'bytes=0-9' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-length')).toBe('10');
    expect(response.body).toBeNull();
  });

  it('parseRange treats an empty file as having nothing to range over', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange(undefined, 0)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=99999999999999999999-', 10)).toEqual({ kind: 'full' });
  });
});
