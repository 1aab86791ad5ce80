/**
 * How large an answer may be before the call is abandoned (service-transport.ts counts the bytes
 * as they arrive). Derived from the catalog's limits where it publishes them, conservative
 * defaults otherwise; every figure is stated in the README.
 */
import type { ServiceLimits } from './adapter/adapter-types.js';
import { MAX_DETECTIONS_PER_IMAGE } from './adapter/read-detections.js';

const MB = 1024 * 1024;

export interface AnswerCaps {
  /** POST /infer/image: room for MAX_DETECTIONS_PER_IMAGE detections of ~800 bytes each. */
  image: number;
  /** GET /jobs/{id}: a clip's whole result. */
  job: number;
}

/** A clip result's allowance per analysed frame (a few dozen detections; most frames hold fewer). */
const JOB_BYTES_PER_FRAME = 16 * 1024;
const JOB_MIN = 8 * MB;
const JOB_MAX = 128 * MB;
/** When the catalog publishes no clip length or sampling rate. */
const JOB_DEFAULT = 64 * MB;

export const DEFAULT_ANSWER_CAPS: Readonly<AnswerCaps> = {
  image: Math.ceil((MAX_DETECTIONS_PER_IMAGE * 800) / MB) * MB,
  job: JOB_DEFAULT,
};

/** The caps for a service whose catalog published `limits`. */
export function answerCapsOf(limits: ServiceLimits): AnswerCaps {
  const published = (name: string) => !limits.notPublished.some((n) => n.name === name);
  if (!published('maxVideoSeconds') || !published('videoSampleFps'))
    return { ...DEFAULT_ANSWER_CAPS };
  const frames = Math.ceil(limits.maxVideoSeconds * limits.videoSampleFps);
  const job = Math.min(JOB_MAX, Math.max(JOB_MIN, frames * JOB_BYTES_PER_FRAME));
  return { ...DEFAULT_ANSWER_CAPS, job: Math.round(job) };
}
