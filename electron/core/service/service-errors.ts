/**
 * Every way a service call can fail, as error classes with a `code` the runner can branch on.
 * Thrown (not returned) so that a forgotten check can never read a failure as a result.
 */

/** Base class: `code` is stable and machine-readable, `message` is for people. */
export abstract class ServiceClientError extends Error {
  abstract readonly code: string;
}

/** A non-2xx answer. `code` comes from the `{"error": {code, message}}` body. */
export class ServiceError extends ServiceClientError {
  override readonly name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait, from `Retry-After` (seconds or HTTP date); set on 429 and some 503s. */
    readonly retryAfterSec?: number,
  ) {
    super(message);
  }
}

/**
 * The connection failed or timed out and the request can be resent safely (nothing was sent, the
 * upload was cut short, or the call is idempotent). Thrown once retries are exhausted.
 */
export class NetworkError extends ServiceClientError {
  override readonly name = 'NetworkError';
  readonly code: 'network_error' | 'timeout';
  constructor(
    readonly reason: 'network' | 'timeout',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = reason === 'timeout' ? 'timeout' : 'network_error';
  }
}

/**
 * A POST whose body was fully handed to the connection but whose answer never arrived: the service
 * may have processed it (and charged frames, or queued a job). Never resent automatically; the
 * caller decides (the runner marks the submission `uncertain`).
 */
export class UncertainOutcomeError extends ServiceClientError {
  override readonly name = 'UncertainOutcomeError';
  readonly code = 'uncertain_outcome';
  constructor(
    /**
     * What cut the answer off: the connection, our timeout, the caller's AbortSignal, or a
     * limit of the call (its `cause` is then the AnswerLimitError saying which).
     */
    readonly reason: 'network' | 'timeout' | 'aborted' | 'limit',
    /** `METHOD /path` of the request. */
    readonly request: string,
    /** Request body bytes handed to the connection (the whole body). */
    readonly bytesSent: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${request}: the request was sent in full (${bytesSent} bytes) but its answer was lost ` +
        `(${reason}); the service may have processed it`,
      options,
    );
  }
}

/**
 * The call was abandoned at one of its limits: its answer grew past the size cap, or the call
 * (headers and body together) outlived its overall deadline. Never resent automatically (the
 * same service would answer the same way); after a complete upload it is the cause of an
 * UncertainOutcomeError.
 */
export class AnswerLimitError extends ServiceClientError {
  override readonly name = 'AnswerLimitError';
  readonly code: 'answer_too_large' | 'answer_too_slow';
  /** `METHOD /path` of the call (set by the transport). */
  request?: string;
  constructor(
    readonly limit: 'size' | 'deadline',
    /** The cap in bytes, or the deadline in milliseconds. */
    readonly value: number,
    /** The answer's HTTP status when its headers had arrived (a 2xx inference answer is charged). */
    readonly status?: number,
  ) {
    super(
      limit === 'size'
        ? `the service's answer was larger than ${megabytes(value)}`
        : `the service's answer took longer than the call's deadline of ${seconds(value)} s`,
    );
    this.code = limit === 'size' ? 'answer_too_large' : 'answer_too_slow';
  }
}

const seconds = (ms: number): string =>
  (ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 });

const megabytes = (bytes: number): string => {
  const mb = bytes / (1024 * 1024);
  return mb >= 1
    ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
};

/** An answer whose shape we do not understand; `path` names the field, e.g. `catalog.limits.hourFrames`. */
export class ServiceShapeError extends ServiceClientError {
  override readonly name = 'ServiceShapeError';
  readonly code = 'unexpected_shape';
  constructor(
    readonly path: string,
    /** One line per problem, each starting with its field path. */
    readonly problems: readonly string[],
  ) {
    super(problems.join('; '));
  }
}

/** The local file changed size or vanished while it was being uploaded; resending would not help. */
export class UploadSourceError extends ServiceClientError {
  override readonly name = 'UploadSourceError';
  readonly code = 'upload_source_failed';
}

/**
 * A 2xx answer of an inference endpoint that was (or may have been) charged but cannot be read:
 * it is handed back raw so the caller keeps it with its file (never dropped, never paid twice) and
 * reads it again when the reading improves.
 */
export class AnswerNotUnderstoodError extends ServiceClientError {
  override readonly name = 'AnswerNotUnderstoodError';
  readonly code = 'answer_not_understood';
  constructor(
    /** `imageResult` or `videoSubmission`. */
    readonly answer: string,
    /** HTTP status of the answer (2xx). */
    readonly status: number,
    /** The body exactly as received. */
    readonly raw: string,
    /** One line per problem, each starting with its field path. */
    readonly problems: readonly string[],
  ) {
    super(`The service's answer was not understood: ${problems.join('; ')}`);
  }
}
