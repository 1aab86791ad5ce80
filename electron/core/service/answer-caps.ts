/**
 * How large an answer may be before the call is abandoned (service-transport.ts counts the bytes
 * as they arrive). Derived from the catalog's limits where it publishes them, conservative
 * defaults otherwise; every figure is stated in the README.
 */
import type { ServiceLimits } from './adapter/adapter-types.js';
import { MAX_DETECTIONS_PER_IMAGE } from './adapter/read-detections.js';

const MB = 1024 * 1024;

export interface AnswerCaps {
  /** POST /infer/image: room for the detections an image may carry, ~800 bytes each. */
  image: number;
  /** GET /jobs/{id}: a clip's whole result. */
  job: number;
}

/** One detection as a verbose service writes it (label, ids, score, two boxes, extras). */
const BYTES_PER_DETECTION = 800;
/** An image answer without a published detection limit: room for MAX_DETECTIONS_PER_IMAGE. */
const IMAGE_DEFAULT = Math.ceil((MAX_DETECTIONS_PER_IMAGE * BYTES_PER_DETECTION) / MB) * MB;
/** The least an image answer is given, whatever the catalog says: the rest of the answer. */
const IMAGE_MIN = 1 * MB;
/** A clip result's allowance per analysed frame (a few dozen detections; most frames hold fewer). */
const JOB_BYTES_PER_FRAME = 16 * 1024;
const JOB_MIN = 8 * MB;
const JOB_MAX = 128 * MB;
/** When the catalog publishes no clip length or sampling rate. */
const JOB_DEFAULT = 64 * MB;

export const DEFAULT_ANSWER_CAPS: Readonly<AnswerCaps> = {
  image: IMAGE_DEFAULT,
  job: JOB_DEFAULT,
};

/** The caps for a service whose catalog published `limits`. */
export function answerCapsOf(limits: ServiceLimits): AnswerCaps {
  const published = (name: string) => !limits.notPublished.some((n) => n.name === name);
  const image = imageCapOf(limits.maxDetections);
  if (!published('maxVideoSeconds') || !published('videoSampleFps'))
    return { image, job: JOB_DEFAULT };
  const frames = Math.ceil(limits.maxVideoSeconds * limits.videoSampleFps);
  const job = Math.min(JOB_MAX, Math.max(JOB_MIN, frames * JOB_BYTES_PER_FRAME));
  return { image, job: Math.round(job) };
}

/**
 * A published detection limit sizes the image answer (whole MB, at least IMAGE_MIN, never above
 * the default: a service saying 10^9 is not believed beyond what an image may carry).
 */
function imageCapOf(maxDetections: number | undefined): number {
  if (maxDetections === undefined) return IMAGE_DEFAULT;
  const bytes = Math.ceil((maxDetections * BYTES_PER_DETECTION) / MB) * MB;
  return Math.min(IMAGE_DEFAULT, Math.max(IMAGE_MIN, bytes));
}
