/**
 * THE one entry point of the service adapter (its readers live in ./adapter/): every answer of the
 * service is read here into the typed values of adapter/adapter-types.ts. Strict only where the
 * interface speaks (solutions[].id, bbox and bboxPx, a 202's jobId, GET /key's remaining and
 * hourRemaining, a finished job's result or error); tolerant where it is silent, with a note for
 * every alternative form and every fallback. An answer that does not fit is a ServiceShapeError
 * naming the field, never a silent misreading; a paid inference answer that does not fit is an
 * AnswerNotUnderstoodError carrying the raw body, so the caller keeps it.
 */
import type {
  AnswerContext,
  CancelAck,
  Catalog,
  Health,
  ImageResult,
  Job,
  JobError,
  KeyStatus,
  SdkKey,
  Session,
  VideoSubmission,
} from './adapter/adapter-types.js';
import { BOX_ORIGIN_FIELD } from './adapter/adapter-types.js';
import { Problems } from './adapter/notes.js';
import { readHealth, readKeyStatus, readSdkKey, readSession } from './adapter/read-account.js';
import { readCatalog } from './adapter/read-catalog.js';
import { readErrorBody } from './adapter/read-error-body.js';
import { readImageResult } from './adapter/read-image-result.js';
import { readCancelAck, readJob, readVideoSubmission } from './adapter/read-job.js';
import { AnswerNotUnderstoodError, ServiceShapeError } from './service-errors.js';

export * from './adapter/adapter-types.js';

/** A job in one of these states will not change again. */
export function isFinished(status: Job['status']): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

function strict<T>(root: string, read: (problems: Problems) => T | null): T {
  const problems = new Problems();
  const value = read(problems);
  if (value === null || problems.any) throw new ServiceShapeError(root, problems.list);
  return value;
}

/** JSON text of a 2xx answer; anything that is not JSON is a shape error too. */
export function parseJsonText(root: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const excerpt = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new ServiceShapeError(root, [
      `${root}: expected a JSON body, got ${JSON.stringify(excerpt)}`,
    ]);
  }
}

export const parseCatalog = (data: unknown): Catalog =>
  strict('catalog', (p) => readCatalog(data, p));
export const parseHealth = (data: unknown): Health => strict('health', (p) => readHealth(data, p));
export const parseSession = (data: unknown): Session =>
  strict('session', (p) => readSession(data, p));
export const parseKeyStatus = (data: unknown): KeyStatus =>
  strict('key', (p) => readKeyStatus(data, p));
export const parseSdkKey = (data: unknown): SdkKey => strict('sdkKey', (p) => readSdkKey(data, p));
export const parseCancelAck = (data: unknown): CancelAck => readCancelAck(data);

/**
 * A paid answer (an image's result, a clip's 202, a finished job's result): read it, or hand it
 * back raw in an AnswerNotUnderstoodError. `text` is the body as received.
 */
function paid<T>(
  root: string,
  status: number,
  text: string,
  read: (data: unknown, problems: Problems) => T | null,
): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const excerpt = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new AnswerNotUnderstoodError(root, status, text, [
      `${root}: expected a JSON body, got ${JSON.stringify(excerpt)}`,
    ]);
  }
  const problems = new Problems();
  const value = read(data, problems);
  if (value === null || problems.any) {
    throw new AnswerNotUnderstoodError(root, status, text, problems.list);
  }
  return value;
}

/** The answer, with itself as received when its boxes were read with the origin assumed. */
function withAssumed<T extends ImageResult | Job>(value: T, status: number, text: string): T {
  const assumed = value.understanding.some(
    (n) => n.field === BOX_ORIGIN_FIELD && n.kind === 'not-published',
  );
  return assumed ? { ...value, assumedOrigin: { httpStatus: status, body: text } } : value;
}

export const readImageAnswer = (status: number, text: string, ctx: AnswerContext): ImageResult =>
  withAssumed(
    paid('imageResult', status, text, (d, p) => readImageResult(d, ctx, p)),
    status,
    text,
  );
export const readSubmissionAnswer = (status: number, text: string): VideoSubmission =>
  paid('videoSubmission', status, text, (d, p) => readVideoSubmission(d, p));
export const readJobAnswer = (status: number, text: string, ctx: AnswerContext): Job =>
  withAssumed(
    paid('job', status, text, (d, p) => readJob(d, ctx, p)),
    status,
    text,
  );

/** Already-parsed JSON (tests, and raw answers kept in the library): same readers, same errors. */
export const parseImageResult = (data: unknown, ctx: AnswerContext = {}): ImageResult =>
  readImageAnswer(200, JSON.stringify(data), ctx);
export const parseVideoSubmission = (data: unknown): VideoSubmission =>
  readSubmissionAnswer(202, JSON.stringify(data));
export const parseJob = (data: unknown, ctx: AnswerContext = {}): Job =>
  readJobAnswer(200, JSON.stringify(data), ctx);

/** `{code, message}` of a non-2xx answer in any recognised form, or the text with the status. */
export function parseErrorBody(status: number, text: string): JobError {
  return readErrorBody(status, text);
}
