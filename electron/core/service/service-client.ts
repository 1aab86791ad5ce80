/**
 * Typed client for the ten endpoints of the detection service (service-interface.md), against the
 * embedded service or a hosted one alike. Shapes are parsed by service-adapter.ts; retries follow
 * retry-policy.ts; uploads are streamed from disk by request-body.ts.
 * Transport (keep-alive, timeouts, failure classification) is service-transport.ts.
 */
import type { Agent } from 'node:http';
import {
  DEFAULT_READING,
  parseCancelAck,
  parseCatalog,
  parseHealth,
  parseJsonText,
  parseKeyStatus,
  parseSdkKey,
  parseSession,
  readImageAnswer,
  readJobAnswer,
  readSubmissionAnswer,
  type AnswerContext,
  type CancelAck,
  type Catalog,
  type Health,
  type ImageResult,
  type Job,
  type KeyStatus,
  type ReadingSettings,
  type SdkKey,
  type Session,
  type VideoSubmission,
} from './service-adapter.js';
import { answerCapsOf, DEFAULT_ANSWER_CAPS, type AnswerCaps } from './answer-caps.js';
import { jsonBody, multipartBody, type UploadFile } from './request-body.js';
import { retryPolicy, type RetryPolicy } from './retry-policy.js';
import { ServiceTransport, type RequestSpec } from './service-transport.js';

export interface ServiceClientOptions {
  /** e.g. `http://127.0.0.1:8417` or `https://host/api`; a trailing slash is ignored. */
  baseUrl: string;
  /** API key, trial key or session token, sent as `Authorization: Bearer …` to protected endpoints. */
  apiKey?: string;
  /** Longest wait for progress (an answer, or the next upload chunk). Default 30 s. */
  timeoutMs?: number;
  /**
   * The least time any call is given, headers and body together (an upload adds its bytes at
   * 128 KB/s); past it the call is abandoned. Default 120 s. A function is read at each call, so
   * a person's change of the setting applies to the next call of a long-lived client.
   */
  deadlineFloorMs?: number | (() => number);
  /** Answer size caps; read from the catalog's limits once `catalog()` was called. */
  answerCaps?: AnswerCaps;
  retry?: Partial<RetryPolicy>;
  /** HTTP(S) agent; defaults to a keep-alive agent shared by every client of the process. */
  agent?: Agent;
  /** How this service's answers are read where the interface is silent (default: corner boxes). */
  reading?: ReadingSettings;
}

/** What reading a poll's result needs to know about the clip. */
export interface JobContext {
  solutionClasses?: AnswerContext['solution'];
  /** The clip's own duration: decides whether frame times are seconds or milliseconds. */
  clipDurationMs?: number | null;
}

export type SdkLang = 'curl' | 'python' | 'node' | 'ts' | 'browser';

export interface SdkSource {
  lang: string;
  filename?: string;
  contentType: string;
  source: string;
}

export interface UploadRequest {
  solution: string;
  /** A path (streamed from disk) or the bytes. */
  file: UploadFile;
  /** Name sent with the file; defaults to the path's base name, or `upload`. */
  filename?: string;
  signal?: AbortSignal;
  /** The solution's classes (a class index in an answer names one of them). */
  solutionClasses?: AnswerContext['solution'];
}

const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_DEADLINE_FLOOR_MS = 120_000;

export class ServiceClient {
  private readonly transport: ServiceTransport;
  private caps: AnswerCaps;
  /** Where the catalog said x,y of a box is, once read (undefined: it did not say). */
  private declaredOrigin: 'corner' | 'centre' | undefined;
  /** Where this client's undecided answers' boxes sat: many answers may decide (issue 23 §3). */
  private readonly originEvidence = { boxes: 0, cornerX: 0, cornerY: 0, centreX: 0, centreY: 0 };

  constructor(private readonly options: ServiceClientOptions) {
    this.caps = options.answerCaps ?? DEFAULT_ANSWER_CAPS;
    this.transport = new ServiceTransport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      deadlineFloorMs: options.deadlineFloorMs ?? DEFAULT_DEADLINE_FLOOR_MS,
      retry: retryPolicy(options.retry),
      agent: options.agent,
    });
  }

  /** The same client with another credential (e.g. the token `session()` returned). */
  withApiKey(apiKey: string | undefined): ServiceClient {
    return new ServiceClient({ ...this.options, answerCaps: this.caps, apiKey });
  }

  /** The same client reading boxes with another per-service setting (Check service's corner/centre). */
  withReading(reading: ReadingSettings): ServiceClient {
    return new ServiceClient({ ...this.options, answerCaps: this.caps, reading });
  }

  /** The catalog; its limits also set this client's answer size caps (answer-caps.ts). */
  async catalog(signal?: AbortSignal): Promise<Catalog> {
    const catalog = parseCatalog(
      await this.json('catalog', { method: 'GET', path: '/catalog', auth: false, signal }),
    );
    this.caps = answerCapsOf(catalog.limits);
    // A catalog that says where x,y of a box is settles it, unless a person chose (issue 23 §3).
    if (catalog.boxOrigin) this.declaredOrigin = catalog.boxOrigin;
    return catalog;
  }

  async health(signal?: AbortSignal): Promise<Health> {
    return parseHealth(
      await this.json('health', { method: 'GET', path: '/healthz', auth: false, signal }),
    );
  }

  async sdk(lang: SdkLang | (string & {}), signal?: AbortSignal): Promise<SdkSource> {
    const path = `/sdk/${encodeURIComponent(lang)}`;
    const answer = await this.transport.send({ method: 'GET', path, auth: false, signal });
    const disposition = answer.header('content-disposition') ?? '';
    const filename = /filename="([^"]*)"/.exec(disposition)?.[1];
    return {
      lang,
      contentType: answer.header('content-type') ?? 'text/plain',
      source: answer.text,
      ...(filename ? { filename } : {}),
    };
  }

  async session(deviceId: string, turnstileToken?: string, signal?: AbortSignal): Promise<Session> {
    const payload = turnstileToken === undefined ? { deviceId } : { deviceId, turnstileToken };
    return parseSession(
      await this.json('session', {
        method: 'POST',
        path: '/session',
        auth: false,
        body: (onChunk) => jsonBody(payload, onChunk),
        signal,
      }),
    );
  }

  async keyStatus(signal?: AbortSignal): Promise<KeyStatus> {
    return parseKeyStatus(
      await this.json('key', { method: 'GET', path: '/key', auth: true, signal }),
    );
  }

  /** Exchanges the session token this client holds for a trial key (shown once: store it). */
  async sdkKey(signal?: AbortSignal): Promise<SdkKey> {
    return parseSdkKey(
      await this.json('sdkKey', {
        method: 'POST',
        path: '/sdk-key',
        auth: true,
        body: (onChunk) => jsonBody({}, onChunk),
        signal,
      }),
    );
  }

  /**
   * Throws UncertainOutcomeError when the image was sent in full but the answer was lost, and
   * AnswerNotUnderstoodError (with the raw body) when a 2xx answer cannot be read.
   */
  async inferImage(request: UploadRequest): Promise<ImageResult> {
    const answer = await this.upload('/infer/image', request, this.caps.image);
    return readImageAnswer(answer.status, answer.text, this.context(request.solutionClasses));
  }

  /** Answers at 202 with the job to poll; UncertainOutcomeError and AnswerNotUnderstoodError as for images. */
  async submitVideo(request: UploadRequest): Promise<VideoSubmission> {
    const answer = await this.upload('/infer/video', request);
    return readSubmissionAnswer(answer.status, answer.text);
  }

  /**
   * A poll. A failed job is a value here (`status: 'failed'`, `error`), not an exception; a result
   * that cannot be read is an AnswerNotUnderstoodError carrying it raw.
   */
  async job(id: string, signal?: AbortSignal, context?: JobContext): Promise<Job> {
    const path = `/jobs/${encodeURIComponent(id)}`;
    const answer = await this.transport.send({
      method: 'GET',
      path,
      auth: true,
      signal,
      maxAnswerBytes: this.caps.job,
    });
    return readJobAnswer(answer.status, answer.text, {
      ...this.context(context?.solutionClasses),
      clipDurationMs: context?.clipDurationMs ?? null,
    });
  }

  /** Cancels (idempotent on the service). Any 2xx answer, whatever its body, means cancelled. */
  async cancelJob(id: string, signal?: AbortSignal): Promise<CancelAck> {
    const path = `/jobs/${encodeURIComponent(id)}`;
    const answer = await this.transport.send({ method: 'DELETE', path, auth: true, signal });
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    return parseCancelAck(body);
  }

  private context(solution: AnswerContext['solution']): AnswerContext {
    const set = this.options.reading ?? DEFAULT_READING;
    const declared = set.originConfirmed === false ? this.declaredOrigin : undefined;
    const reading = declared
      ? { boxOrigin: declared, originConfirmed: true }
      : set.originConfirmed === false
        ? { ...set, originEvidence: this.originEvidence }
        : set;
    return { reading, ...(solution ? { solution } : {}) };
  }

  private upload(path: string, request: UploadRequest, maxAnswerBytes?: number) {
    const { solution, file, filename, signal } = request;
    return this.transport.send({
      method: 'POST',
      path,
      auth: true,
      body: (onChunk) => multipartBody(solution, file, onChunk, filename),
      signal,
      maxAnswerBytes,
    });
  }

  /** `root` names the answer in shape errors (`catalog`, `job`, …), as the adapter does. */
  private async json(root: string, spec: RequestSpec): Promise<unknown> {
    const answer = await this.transport.send(spec);
    return parseJsonText(root, answer.text);
  }
}
