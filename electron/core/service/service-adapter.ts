/**
 * THE one module that knows the service's response shapes (service-interface.md plus the decisions
 * in DESIGN.md). Every answer is parsed here into a typed value; an answer that does not fit is a
 * ServiceShapeError naming the field (`catalog.limits.pollIntervalMs.min: expected number, …`),
 * never a silent misreading. Unknown extra fields are accepted and dropped: the hosted service may
 * add some. A different hosted shape is a change in this file only.
 */
import { z } from 'zod';
import { ServiceShapeError } from './service-errors.js';

const num = z.number();
const box = z.object({ x: num, y: num, w: num, h: num });
/** Optional numbers: JSON has no NaN (it becomes null), so null counts as absent. */
const optionalNum = num.nullish().transform((v) => v ?? undefined);
/** Any number, even Infinity (JSON's 1e999): clampPollInterval makes every hint sane. */
const pollHint = z
  .custom<number | null>((v) => v === null || typeof v === 'number', 'expected number')
  .optional()
  .transform((v) => v ?? undefined);

export const MEDIA_KINDS = ['image', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
const isMediaKind = (m: string): m is MediaKind => (MEDIA_KINDS as readonly string[]).includes(m);

const solution = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  // A medium we cannot send (a future "audio") is ignored rather than failing the whole catalog.
  media: z.array(z.string()).transform((list) => list.filter(isMediaKind)),
  classes: z.array(z.string()),
  // Unknown costs (null) are learnt from the service's own count (runner/learn-cost.ts).
  frameCost: z
    .object({ image: num.nonnegative().nullish(), videoFrame: num.nonnegative().nullish() })
    .optional()
    .transform((c) => ({ image: c?.image ?? null, videoFrame: c?.videoFrame ?? null })),
});

const limits = z.object({
  maxImageBytes: num.positive(),
  maxVideoBytes: num.positive(),
  maxVideoSeconds: num.positive(),
  imageFormats: z.array(z.string()),
  videoFormats: z.array(z.string()),
  maxConcurrentRequests: num.int().positive(),
  maxConcurrentJobs: num.int().positive(),
  maxQueuedJobs: num.int().nonnegative(),
  hourFrames: num.nonnegative(),
  sessionFrames: num.optional(),
  trialKeyFrames: num.optional(),
  videoSampleFps: num.positive(),
  pollIntervalMs: z.object({ min: num.nonnegative(), max: num.nonnegative() }),
});

const catalog = z.object({
  version: z.string(),
  aiStatus: z.string(),
  limits,
  sdk: z.array(z.object({ lang: z.string(), path: z.string(), filename: z.string().optional() })),
  solutions: z.array(solution),
});

const health = z.object({
  status: z.string(),
  uptimeSec: num,
  enabled: z.boolean(),
  ai: z.string(),
  solutions: z.record(z.string(), z.string()),
});

const expiresAt = z.string().nullable();

const session = z.object({
  token: z.string().min(1),
  credits: num,
  expiresAt,
  deviceFramesLeft: num,
  networkFramesLeft: num,
});

const keyStatus = z.object({ audience: z.string(), remaining: num, hourRemaining: num, expiresAt });

const sdkKey = z.object({ key: z.string().min(1), frames: num, expiresAt, notice: z.string() });

const detection = z.object({
  label: z.string(),
  classId: num.int(),
  score: num,
  bbox: box,
  bboxPx: box,
});

const credits = z.object({
  spent: optionalNum,
  remaining: optionalNum,
  hourRemaining: optionalNum,
  /** Frames held for a queued clip (video submit only). */
  reserved: num.optional(),
});

const imageResult = z.object({
  detections: z.array(detection),
  image: z.object({
    width: num,
    height: num,
    analysedWidth: num,
    analysedHeight: num,
    format: z.string(),
  }),
  stats: z.object({ model: z.string(), inferenceMs: num, totalMs: num }),
  credits: credits.optional(),
});

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const jobStatus = z.enum(JOB_STATUSES);

const videoSubmission = z.object({
  jobId: z.string().min(1),
  status: jobStatus,
  queuePosition: num,
  pollUrl: z.string(),
  // Missing or odd hints are tolerated here and clamped by clampPollInterval.
  pollIntervalMs: pollHint,
  credits: credits.optional(),
});

const videoResult = z.object({
  fps: num,
  sampledFps: num,
  durationMs: num,
  width: num,
  height: num,
  analysedWidth: num,
  analysedHeight: num,
  frames: z.array(z.object({ index: num.int(), timeMs: num, detections: z.array(detection) })),
});

const jobError = z.object({ code: z.string(), message: z.string() });

const job = z.object({
  jobId: z.string().optional(),
  status: jobStatus,
  progress: num.min(0).max(1),
  queuePosition: optionalNum,
  pollIntervalMs: pollHint,
  result: videoResult.optional(),
  error: jobError.optional(),
});

const cancelAck = z.object({ jobId: z.string().optional(), status: jobStatus });

const errorBody = z.object({ error: jobError });

export type Catalog = z.output<typeof catalog>;
export type CatalogSolution = z.output<typeof solution>;
export type ServiceLimits = z.output<typeof limits>;
export type Health = z.output<typeof health>;
export type Session = z.output<typeof session>;
export type KeyStatus = z.output<typeof keyStatus>;
export type SdkKey = z.output<typeof sdkKey>;
export type Box = z.output<typeof box>;
export type Detection = z.output<typeof detection>;
export type Credits = z.output<typeof credits>;
export type ImageResult = z.output<typeof imageResult>;
export type JobStatus = z.output<typeof jobStatus>;
export type VideoSubmission = z.output<typeof videoSubmission>;
export type VideoResult = z.output<typeof videoResult>;
export type JobError = z.output<typeof jobError>;
export type Job = z.output<typeof job>;
export type CancelAck = z.output<typeof cancelAck>;

/** A job in one of these states will not change again. */
export function isFinished(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

/** `catalog.solutions[0].frameCost`: the path in the form people read and grep for. */
function fieldPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (at, key) => (typeof key === 'number' ? `${at}[${key}]` : `${at}.${String(key)}`),
    root,
  );
}

function parseWith<S extends z.ZodType>(root: string, schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${fieldPath(root, issue.path)}: ${issue.message.replace(/^Invalid input: /, '')}`,
  );
  throw new ServiceShapeError(root, problems);
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

export const parseCatalog = (data: unknown): Catalog => parseWith('catalog', catalog, data);
export const parseHealth = (data: unknown): Health => parseWith('health', health, data);
export const parseSession = (data: unknown): Session => parseWith('session', session, data);
export const parseKeyStatus = (data: unknown): KeyStatus => parseWith('key', keyStatus, data);
export const parseSdkKey = (data: unknown): SdkKey => parseWith('sdkKey', sdkKey, data);
export const parseImageResult = (data: unknown): ImageResult =>
  parseWith('imageResult', imageResult, data);
export const parseVideoSubmission = (data: unknown): VideoSubmission =>
  parseWith('videoSubmission', videoSubmission, data);
export const parseJob = (data: unknown): Job => parseWith('job', job, data);
export const parseCancelAck = (data: unknown): CancelAck => parseWith('cancelAck', cancelAck, data);

/**
 * `{code, message}` of a non-2xx answer. A body that is not ours (a proxy's HTML 502) still yields
 * the status: code `http_<status>` and the start of the text, so the status-based decisions hold.
 */
export function parseErrorBody(status: number, text: string): JobError {
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.error;
  } catch {
    /* not JSON: fall through */
  }
  const excerpt = text.trim().slice(0, 200);
  return { code: `http_${status}`, message: excerpt || `The service answered HTTP ${status}.` };
}
