/**
 * Seeded generators of hostile HTTP traffic: request lines, paths, percent-encodings, headers,
 * methods, chunked framing, multipart structures and JSON bodies. Every case is plain bytes plus how
 * to send them, so a failing case can be printed and replayed from its seed.
 */
import { int, pick, randomBytes, type Rng } from './fuzz-rng.js';
import { multipartBody } from './multipart-bodies.js';

export { seededRng } from './fuzz-rng.js';

export interface FuzzCase {
  name: string;
  payload: Buffer;
  /**
   * The request is cut short: the client ends its side to say no more is coming. Complete requests
   * keep the connection open until answered (Node treats a client's FIN as an abort).
   */
  halfClose: boolean;
  head?: boolean;
  /** How many requests the payload holds (pipelined requests). */
  requests: number;
}

export interface Credentials {
  apiKey: string;
  session: string;
  image: Buffer;
}

/** A UUID v4 drawn from the seeded stream, so a replay sends the same one. */
const uuidFrom = (rng: Rng) => {
  const hex = randomBytes(rng, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const JOB_ID = '00000000-0000-4000-8000-000000000000';
export const ENDPOINTS: readonly (readonly [string, string])[] = [
  ['GET', '/catalog'],
  ['GET', '/healthz'],
  ['GET', '/sdk/python'],
  ['POST', '/session'],
  ['GET', '/key'],
  ['POST', '/sdk-key'],
  ['POST', '/infer/image'],
  ['POST', '/infer/video'],
  ['GET', `/jobs/${JOB_ID}`],
  ['DELETE', `/jobs/${JOB_ID}`],
];

const BAD_ENCODINGS = [
  '%ZZ',
  '%E0%A4%A',
  '%',
  '%%',
  '%C0%AF',
  '%00',
  '%2F',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%u0041',
];

function hostilePath(rng: Rng): string {
  const [, base] = pick(rng, ENDPOINTS);
  switch (int(rng, 0, 9)) {
    case 0:
      return `/jobs/${pick(rng, BAD_ENCODINGS)}`;
    case 1:
      return `/sdk/${pick(rng, BAD_ENCODINGS)}${pick(rng, BAD_ENCODINGS)}`;
    case 2:
      return `${base}${pick(rng, BAD_ENCODINGS)}`;
    case 3:
      return `${base}?${pick(rng, BAD_ENCODINGS)}=${'q'.repeat(int(rng, 0, 3000))}`;
    case 4:
      return `/${'a/'.repeat(int(rng, 1, 3000))}`;
    case 5:
      return pick(rng, [
        '*',
        `http://127.0.0.1${base}`,
        `//${base}`,
        `${base}/..`,
        '/..%2F..%2Fetc%2Fpasswd',
      ]);
    case 6:
      return `/jobs/${'%41'.repeat(int(rng, 1, 2000))}`;
    case 7:
      return `/${randomBytes(rng, int(rng, 1, 40))
        .toString('latin1')
        .replace(/[\r\n ]/g, '')}`;
    case 8:
      return `/sdk/${'\u00e9\u4e2d'.repeat(int(rng, 1, 10))}`;
    default:
      return base;
  }
}

function authHeader(rng: Rng, creds: Credentials): string {
  return pick(rng, [
    '',
    `Authorization: Bearer ${creds.apiKey}\r\n`,
    `Authorization: Bearer ${creds.session}\r\n`,
    'Authorization: Bearer ldk_not_a_real_key_000\r\n',
    'Authorization: Basic Zm9vOmJhcg==\r\n',
    `Authorization: Bearer ${'x'.repeat(int(rng, 201, 5000))}\r\n`,
    'Authorization: \r\n',
  ]);
}

function request(
  method: string,
  path: string,
  headers: string,
  body: Buffer | string = '',
  version = 'HTTP/1.1',
): Buffer {
  return Buffer.concat([
    Buffer.from(`${method} ${path} ${version}\r\nHost: 127.0.0.1\r\n${headers}\r\n`, 'latin1'),
    Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
  ]);
}

// Bodies given as strings are sent as latin1 (request() below), so they are measured as latin1.
const sized = (body: Buffer | string, extra = '') =>
  `Content-Length: ${Buffer.isBuffer(body) ? body.length : Buffer.byteLength(body, 'latin1')}\r\n${extra}`;

function jsonOfSize(bytes: number): Buffer {
  if (bytes === 0) return Buffer.alloc(0);
  const frame = '{"deviceId":"","pad":""}';
  const pad = Math.max(0, bytes - frame.length);
  return Buffer.from(`{"deviceId":"","pad":"${'p'.repeat(pad)}"}`).subarray(0, bytes);
}

export const JSON_SIZES = [0, 1024, 16 * 1024, 100 * 1024, 1024 * 1024, 4 * 1024 * 1024 + 1];

/** One JSON body of a given size to one endpoint, with or without valid auth: the deterministic sweep. */
export function jsonSizeCase(method: string, path: string, bytes: number, auth: string): FuzzCase {
  const body = jsonOfSize(bytes);
  return {
    name: `json ${bytes} B ${method} ${path}${auth ? ' (auth)' : ''}`,
    payload: request(method, path, `${auth}Content-Type: application/json\r\n${sized(body)}`, body),
    halfClose: false,
    requests: 1,
  };
}

type Generator = (
  rng: Rng,
  creds: Credentials,
) => Omit<FuzzCase, 'requests'> & { requests?: number };

const GENERATORS: Record<string, Generator> = {
  requestLine: (rng) => {
    const method = pick(rng, [
      'GET',
      'POST',
      'DELETE',
      'PUT',
      'PATCH',
      'HEAD',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'FOO',
      'get',
      'G\x00T',
      'GET GET',
    ]);
    const version = pick(rng, [
      'HTTP/1.1',
      'HTTP/1.0',
      'HTTP/2.0',
      'HTTP/1.x',
      'HTTP/9.9',
      'HTTPS/1.1',
      '',
    ]);
    const [, path] = pick(rng, ENDPOINTS);
    const line = pick(rng, [
      `${method} ${path} ${version}`,
      `${method} ${path}`,
      `${method}  ${path}  ${version}`,
      `${method}\t${path}\t${version}`,
      randomBytes(rng, int(rng, 1, 60))
        .toString('latin1')
        .replace(/\n/g, ''),
    ]);
    return {
      name: `request line ${JSON.stringify(line.slice(0, 60))}`,
      payload: Buffer.from(`${line}\r\nHost: localhost\r\n\r\n`, 'latin1'),
      halfClose: false,
      head: method === 'HEAD',
    };
  },
  path: (rng, creds) => {
    const method = pick(rng, ['GET', 'POST', 'DELETE', 'HEAD']);
    const path = hostilePath(rng);
    return {
      name: `path ${method} ${JSON.stringify(path.slice(0, 80))}`,
      payload: request(method, path, `${authHeader(rng, creds)}Content-Length: 0\r\n`),
      halfClose: false,
      head: method === 'HEAD',
    };
  },
  headers: (rng, creds) => {
    const [method, path] = pick(rng, ENDPOINTS);
    const kind = pick(rng, [
      'huge',
      'many',
      'nul',
      'bare cr',
      'space before colon',
      'obs fold',
      'two lengths',
      'length and chunked',
      'negative length',
      'text length',
      'no host',
      'utf8 value',
      'huge length',
      'expect',
      'expect continue',
    ]);
    const auth = authHeader(rng, creds);
    const extra = {
      huge: `X-Big: ${'b'.repeat(int(rng, 8000, 70_000))}\r\n`,
      many: Array.from({ length: int(rng, 100, 3000) }, (_, i) => `X-H${i}: ${i}\r\n`).join(''),
      nul: 'X-Nul: a\x00b\r\n',
      'bare cr': 'X-Cr: a\rb\r\n',
      'space before colon': 'X-Sp : v\r\n',
      'obs fold': 'X-Fold: a\r\n  folded\r\n',
      'two lengths': 'Content-Length: 2\r\nContent-Length: 5\r\n',
      'length and chunked': 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n',
      'negative length': 'Content-Length: -1\r\n',
      'text length': 'Content-Length: abc\r\n',
      'no host': '',
      'utf8 value': 'X-U: \u00e9\u00e8\r\n',
      'huge length': 'Content-Length: 99999999999999999999\r\n',
      expect: 'Expect: teapot\r\nContent-Length: 2\r\n',
      'expect continue': 'Expect: 100-continue\r\nContent-Length: 2\r\n',
    }[kind];
    const body = /length|chunked|expect/.test(kind) ? '{}' : '';
    let payload = request(method, path, `${auth}${extra}`, body);
    if (kind === 'no host') payload = Buffer.from(`${method} ${path} HTTP/1.1\r\n\r\n`);
    return { name: `headers ${kind} ${method} ${path}`, payload, halfClose: false };
  },
  chunked: (rng, creds) => {
    const [method, path] = pick(rng, ENDPOINTS);
    const kind = pick(rng, [
      'valid',
      'bad size',
      'negative',
      'huge size',
      'no crlf',
      'truncated',
      'extensions',
      'trailers',
      'no terminator',
    ]);
    const body = {
      valid: '2\r\n{}\r\n0\r\n\r\n',
      'bad size': 'zz\r\n{}\r\n0\r\n\r\n',
      negative: '-2\r\n{}\r\n0\r\n\r\n',
      'huge size': 'ffffffffffffffff\r\n{}\r\n0\r\n\r\n',
      'no crlf': '2{}0\r\n\r\n',
      truncated: `${(4000).toString(16)}\r\n${'a'.repeat(int(rng, 0, 3999))}`,
      extensions: `2;${'e=v;'.repeat(int(rng, 10, 5000))}\r\n{}\r\n0\r\n\r\n`,
      trailers: '2\r\n{}\r\n0\r\nX-T: v\r\n\r\n',
      'no terminator': '2\r\n{}\r\n',
    }[kind];
    const headers = `${authHeader(rng, creds)}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n`;
    return {
      name: `chunked ${kind} ${method} ${path}`,
      payload: request(method, path, headers, body),
      halfClose: kind === 'truncated' || kind === 'no terminator',
    };
  },
  multipart: (rng, creds) => {
    const path = pick(rng, ['/infer/image', '/infer/video', '/session']);
    const boundary = `b${int(rng, 0, 1e9)}`;
    const { body, label } = multipartBody(rng, creds, boundary);
    const type = pick(rng, [
      `multipart/form-data; boundary=${boundary}`,
      'multipart/form-data',
      `multipart/form-data; boundary=other`,
      `multipart/form-data; boundary="${boundary}"`,
      'multipart/mixed',
      'text/plain',
    ]);
    const length = rng() < 0.8 ? sized(body) : 'Transfer-Encoding: chunked\r\n';
    const framed = length.startsWith('Transfer')
      ? Buffer.concat([
          Buffer.from(`${body.length.toString(16)}\r\n`),
          body,
          Buffer.from('\r\n0\r\n\r\n'),
        ])
      : body;
    // Mostly a valid key, so the parts get read rather than refused at the door.
    const auth = rng() < 0.7 ? `Authorization: Bearer ${creds.apiKey}\r\n` : authHeader(rng, creds);
    const headers = `${auth}Content-Type: ${type}\r\n${length}`;
    return {
      name: `multipart ${label} ${JSON.stringify(type)} ${path}`,
      payload: request('POST', path, headers, framed),
      halfClose: false,
    };
  },
  jsonBody: (rng, creds) => {
    const [method, path] = pick(rng, ENDPOINTS);
    const body = pick(rng, [
      '{',
      '[]',
      'null',
      '"s"',
      '{"deviceId":1}',
      `{"deviceId":"${uuidFrom(rng)}"}`,
      '\u0000\u00ff',
      jsonOfSize(int(rng, 0, 40_000)).toString(),
    ]);
    const headers = `${authHeader(rng, creds)}Content-Type: application/json\r\n${sized(body)}`;
    return {
      name: `json body ${method} ${path} ${JSON.stringify(body.slice(0, 30))}`,
      payload: request(method, path, headers, body),
      halfClose: false,
    };
  },
  truncatedBody: (rng, creds) => {
    // A stalled sender (no FIN) only where the service bounds the wait in seconds: uploads may
    // legitimately take up to the 10-minute request timeout, which the fuzzer cannot wait for.
    const stalled = rng() < 0.3;
    const endpoints = stalled ? ENDPOINTS.filter(([, p]) => !p.startsWith('/infer')) : ENDPOINTS;
    const [method, path] = pick(rng, endpoints);
    const declared = int(rng, 1, 5 * 1024 * 1024);
    const sent = 'x'.repeat(int(rng, 0, Math.min(declared - 1, 20_000)));
    const headers = `${authHeader(rng, creds)}Content-Type: application/json\r\nContent-Length: ${declared}\r\n`;
    return {
      name: `truncated body ${declared}/${sent.length} B ${method} ${path}${stalled ? ', stalled' : ''}`,
      payload: request(method, path, headers, sent),
      halfClose: !stalled,
    };
  },
  pipelined: (rng, creds) => {
    const [m1, p1] = pick(rng, ENDPOINTS);
    const [m2, p2] = pick(rng, ENDPOINTS);
    const auth = authHeader(rng, creds);
    const payload = Buffer.concat([
      request(m1, p1, `${auth}Content-Length: 0\r\n`),
      request(m2, p2, `${auth}Content-Length: 0\r\n`),
    ]);
    return { name: `pipelined ${m1} ${p1} + ${m2} ${p2}`, payload, halfClose: false, requests: 2 };
  },
};

export const CATEGORIES = Object.keys(GENERATORS);

export function randomCase(rng: Rng, creds: Credentials): FuzzCase {
  const category = pick(rng, CATEGORIES);
  const generated = GENERATORS[category]!(rng, creds);
  return { requests: 1, ...generated, name: `${category}: ${generated.name}` };
}
