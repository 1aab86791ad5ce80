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
    /** What cut the answer off: the connection, our timeout, or the caller's AbortSignal. */
    readonly reason: 'network' | 'timeout' | 'aborted',
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
