/**
 * One HTTP exchange with the service, with retries, timeouts and the classification of failures.
 *
 * Connections: Node's global fetch (undici) keeps connections alive and reuses them per origin.
 * Timeouts: `timeoutMs` bounds each wait for progress — the answer after the request was sent, and
 * each pull of an upload — so a 500 MB clip on a slow link is not cut off by a per-call deadline.
 * The caller's AbortSignal is combined with it (AbortSignal.any) and also ends retry waits.
 */
import { parseErrorBody } from './service-adapter.js';
import {
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
  retry: RetryPolicy;
  fetch: typeof fetch;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  auth: boolean;
  /** Makes a fresh body for each attempt; `onChunk` tells the timeout that the upload progresses. */
  body?: (onChunk: () => void) => Promise<TrackedBody> | TrackedBody;
  signal?: AbortSignal | undefined;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export class ServiceTransport {
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Attempts with retries; resolves with a 2xx answer or throws a ServiceClientError / abort. */
  async send(spec: RequestSpec): Promise<Answer> {
    for (let attempt = 1; ; attempt++) {
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
        await sleep(delayMs, spec.signal);
      }
    }
  }

  private async attempt(spec: RequestSpec): Promise<Answer> {
    const answer = await this.exchange(spec);
    if (answer.status >= 200 && answer.status < 300) return answer;
    const { code, message } = parseErrorBody(answer.status, answer.text);
    const retryAfter = parseRetryAfter(answer.headers.get('retry-after'));
    throw new ServiceError(answer.status, code, message, retryAfter);
  }

  /** One request and its whole answer; network failures come out classified. */
  private async exchange(spec: RequestSpec): Promise<Answer> {
    spec.signal?.throwIfAborted();
    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => timeout.abort(new Error('timeout')), this.timeoutMs);
    };
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout.signal]) : timeout.signal;
    const body = spec.body ? await spec.body(arm) : undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.auth && this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (body) {
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(body.length);
    }
    arm();
    try {
      const res = await this.options.fetch(this.baseUrl + spec.path, {
        method: spec.method,
        headers,
        signal,
        ...(body ? { body: body.stream, duplex: 'half' as const } : {}),
      });
      arm();
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (err) {
      throw this.classify(err, spec, body, timeout.signal);
    } finally {
      clearTimeout(timer);
      await body?.dispose();
    }
  }

  private classify(
    err: unknown,
    spec: RequestSpec,
    body: TrackedBody | undefined,
    timeoutSignal: AbortSignal,
  ): unknown {
    const source = body?.progress.sourceError;
    if (source) {
      return source instanceof ServiceClientError
        ? source
        : new UploadSourceError(`Reading the upload failed: ${source.message}`, { cause: source });
    }
    const request = `${spec.method} ${spec.path}`;
    const reason = spec.signal?.aborted ? 'aborted' : timeoutSignal.aborted ? 'timeout' : 'network';
    // POSTs are not idempotent: once the whole body is out, resending could charge twice.
    if (spec.method === 'POST' && body?.progress.complete) {
      return new UncertainOutcomeError(reason, request, body.progress.bytesSent, { cause: err });
    }
    if (reason === 'aborted') return spec.signal?.reason ?? err;
    const detail = describeCause(err);
    const message =
      reason === 'timeout'
        ? `${request}: no progress for ${this.timeoutMs} ms`
        : `${request}: ${detail}`;
    return new NetworkError(reason, message, { cause: err });
  }
}

/** fetch wraps socket errors as `TypeError: fetch failed` with the useful part in `cause`. */
function describeCause(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${e.message} (${code})` : e.message);
  }
  return parts.join(': ') || String(err);
}
