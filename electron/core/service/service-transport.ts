/**
 * One HTTP exchange with the service, with retries, timeouts and the classification of failures.
 *
 * Built on node:http(s), not fetch: Node 20's fetch (undici 6, and undici 7 too) keeps every chunk
 * of a streamed request body alive until the request ends — a 200 MB clip cost 200 MB of memory in
 * our measurements — while http.request with drain-awaited writes stays at a chunk or two.
 * Connections: one keep-alive Agent per protocol, shared by all clients, reuses sockets (Node
 * honours the server's `Keep-Alive: timeout` hint, so idle sockets close before the server's do).
 * Timeouts: `timeoutMs` bounds each wait for progress (a written upload chunk, answer bytes).
 * Limits, whatever the service does: every call also has an overall deadline (headers and body
 * together) of `deadlineFloorMs` plus the upload's bytes at a slow link's rate (a 500 MB clip is
 * given its time, an answer trickling a byte every few seconds is not), and every answer body a
 * size cap (`maxAnswerBytes`), counted as it streams in and abandoned past it: never buffered
 * beyond. The caller's AbortSignal is honoured throughout and also ends retry waits.
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import type * as HttpsModule from 'node:https';
import { createRequire } from 'node:module';
import { MIN_WAIT_MS } from './poll-interval.js';
import { parseErrorBody } from './service-adapter.js';
import {
  AnswerLimitError,
  NetworkError,
  ServiceClientError,
  ServiceError,
  UncertainOutcomeError,
  UploadSourceError,
} from './service-errors.js';
import type { TrackedBody } from './request-body.js';
import { parseRetryAfter, retryDelayMs, sleep, type RetryPolicy } from './retry-policy.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  /** The least time a call is given, headers and body together (read at each call). */
  deadlineFloorMs: number | (() => number);
  retry: RetryPolicy;
  /** Defaults to a shared keep-alive agent for the URL's protocol. */
  agent?: HttpAgent | undefined;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  auth: boolean;
  /** Makes a fresh body for each attempt; `onChunk` tells the timeout that the upload progresses. */
  body?: (onChunk: () => void) => Promise<TrackedBody> | TrackedBody;
  signal?: AbortSignal | undefined;
  /** The answer body's size cap (default SMALL_ANSWER_BYTES). */
  maxAnswerBytes?: number | undefined;
}

/** Cap of the answers that carry no detections (catalog, key, session, SDK sources…). */
export const SMALL_ANSWER_BYTES = 4 * 1024 * 1024;
/** The upload rate a call's deadline allows for (1 Mbit/s): a slow link, not a stalled one. */
const UPLOAD_BYTES_PER_SECOND = 128 * 1024;

export interface Answer {
  status: number;
  /** A response header (lower-case name), joined when repeated. */
  header(name: string): string | undefined;
  text: string;
}

type Outcome = 'network' | 'timeout' | 'aborted' | 'limit';

/** node:https (and TLS) loads for an https service only: ~13 ms of every http run's start-up. */
let https: { module: typeof HttpsModule; agent: HttpAgent } | undefined;
function httpsParts(): { module: typeof HttpsModule; agent: HttpAgent } {
  if (!https) {
    const module = createRequire(import.meta.url)('node:https') as typeof HttpsModule;
    https = { module, agent: new module.Agent({ keepAlive: true }) };
  }
  return https;
}

const sharedHttpAgent = new HttpAgent({ keepAlive: true });

export class ServiceTransport {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly secure: boolean;

  constructor(private readonly options: TransportOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, ''));
    this.secure = this.base.protocol === 'https:';
    if (!this.secure && this.base.protocol !== 'http:') {
      throw new Error(`Unsupported service URL ${options.baseUrl}: use http or https`);
    }
    this.agent = options.agent ?? (this.secure ? httpsParts().agent : sharedHttpAgent);
  }

  /** Attempts with retries; resolves with a 2xx answer or throws a ServiceClientError / abort. */
  async send(spec: RequestSpec): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
      const startedAt = Date.now();
      try {
        return await this.attempt(spec);
      } catch (error) {
        const delayMs = retryDelayMs(error, attempt, this.options.retry);
        if (delayMs === null) throw error;
        this.options.retry.onRetry?.({
          request: `${spec.method} ${spec.path}`,
          attempt,
          delayMs,
          error: error as Error,
        });
        // Whatever the backoff drew, attempts start at least MIN_WAIT_MS apart (the floor of
        // every loop that calls a service).
        const spacing = MIN_WAIT_MS - (Date.now() - startedAt);
        await sleep(Math.max(delayMs, spacing), spec.signal);
      }
    }
  }

  private async attempt(spec: RequestSpec): Promise<Answer> {
    const answer = await this.exchange(spec);
    if (answer.status >= 200 && answer.status < 300) return answer;
    const { code, message } = parseErrorBody(answer.status, answer.text);
    const retryAfter = parseRetryAfter(answer.header('retry-after') ?? null);
    throw new ServiceError(answer.status, code, message, retryAfter);
  }

  /** One request and its whole answer; network failures come out classified. */
  private async exchange(spec: RequestSpec): Promise<Answer> {
    spec.signal?.throwIfAborted();
    let arm: () => void = () => undefined;
    const body = spec.body ? await spec.body(() => arm()) : undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.auth && this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (body) {
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(body.length);
    }
    const basePath = this.base.pathname === '/' ? '' : this.base.pathname;
    const request = this.secure ? httpsParts().module.request : httpRequest;
    const floor = this.options.deadlineFloorMs;
    const deadlineMs =
      (typeof floor === 'function' ? floor() : floor) +
      Math.ceil(((body?.length ?? 0) / UPLOAD_BYTES_PER_SECOND) * 1000);
    const maxBytes = spec.maxAnswerBytes ?? SMALL_ANSWER_BYTES;
    try {
      return await new Promise<Answer>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        let settled = false;
        let answered = false;
        /** The answer's status, once its headers arrived. */
        let status: number | undefined;
        const finish = (err: unknown, outcome: Outcome, answer?: Answer) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          clearTimeout(deadline);
          spec.signal?.removeEventListener('abort', onAbort);
          if (answer) return resolve(answer);
          req.destroy();
          reject(this.classify(err, outcome, spec, body));
        };
        const onAbort = () => finish(spec.signal?.reason, 'aborted');
        arm = () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => finish(new Error(`no progress for ${this.options.timeoutMs} ms`), 'timeout'),
            this.options.timeoutMs,
          );
        };
        const deadline = setTimeout(
          () => finish(new AnswerLimitError('deadline', deadlineMs, status), 'limit'),
          deadlineMs,
        );
        spec.signal?.addEventListener('abort', onAbort, { once: true });
        const req = request(
          {
            protocol: this.base.protocol,
            hostname: this.base.hostname,
            port: this.base.port,
            path: basePath + spec.path,
            method: spec.method,
            headers,
            agent: this.agent,
          },
          (res) => {
            // An early answer (413 by Content-Length, 402 on the solution field) ends the upload.
            answered = true;
            status = res.statusCode;
            readAnswer(res, arm, maxBytes).then(
              (answer) => {
                // A body cut short leaves the socket mid-request: it must not be reused.
                if (body && !body.progress.complete) req.destroy();
                finish(null, 'network', answer);
              },
              (err: unknown) => finish(err, err instanceof AnswerLimitError ? 'limit' : 'network'),
            );
          },
        );
        req.on('error', (err) => finish(err, 'network'));
        arm();
        if (!body) req.end();
        else writeBody(req, body, () => answered).catch((err: unknown) => finish(err, 'network'));
      });
    } finally {
      await body?.dispose();
    }
  }

  private classify(
    err: unknown,
    outcome: Outcome,
    spec: RequestSpec,
    body: TrackedBody | undefined,
  ): unknown {
    const source = body?.progress.sourceError;
    if (source) {
      return source instanceof ServiceClientError
        ? source
        : new UploadSourceError(`Reading the upload failed: ${source.message}`, { cause: source });
    }
    const request = `${spec.method} ${spec.path}`;
    // POSTs are not idempotent: once the whole body is out, resending could charge twice.
    if (spec.method === 'POST' && body?.progress.complete) {
      return new UncertainOutcomeError(outcome, request, body.progress.bytesSent, { cause: err });
    }
    if (err instanceof AnswerLimitError) err.request ??= request;
    if (outcome === 'aborted' || outcome === 'limit') return err;
    const message =
      outcome === 'timeout'
        ? `${request}: no progress for ${this.options.timeoutMs} ms`
        : `${request}: ${describeCause(err)}`;
    return new NetworkError(outcome, message, { cause: err });
  }
}

/** Writes the chunks as the socket drains; stops when the service answered early. */
async function writeBody(
  req: ClientRequest,
  body: TrackedBody,
  answered: () => boolean,
): Promise<void> {
  for await (const chunk of body.chunks) {
    if (answered() || req.destroyed) return;
    if (!req.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          resolve();
        };
        req.on('drain', done);
        req.on('close', done);
      });
    }
  }
  if (!answered() && !req.destroyed) req.end();
}

/** The whole answer, counted as it arrives: past `maxBytes` it is abandoned, not buffered. */
function readAnswer(res: IncomingMessage, progress: () => void, maxBytes: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const tooLarge = () => {
      chunks.length = 0;
      reject(new AnswerLimitError('size', maxBytes, res.statusCode));
      res.destroy();
    };
    // A declared length past the cap is refused before a byte of it is read.
    if (declaredLength(res) > maxBytes) return tooLarge();
    progress();
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) return tooLarge();
      chunks.push(chunk);
      progress();
    });
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        text: Buffer.concat(chunks).toString('utf8'),
      }),
    );
    res.on('error', reject);
    // The connection closed before the whole answer arrived.
    res.on('close', () => {
      if (!res.complete) reject(new Error('connection closed before the answer was complete'));
    });
  });
}

/** Socket errors carry the useful part in `code` (ECONNRESET…) and sometimes in `cause`. */
function describeCause(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    parts.push(
      typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message,
    );
  }
  return parts.join(': ') || String(err);
}

/**
 * The answer's Content-Length (0 when absent), read from the raw header list: `res.headers` builds
 * an object of every header on first use (~40 µs an answer, a tenth of the client's own work on a
 * small photo), and a 2xx answer needs no other header.
 */
function declaredLength(res: IncomingMessage): number {
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'content-length') return Number(raw[i + 1]);
  }
  return 0;
}
