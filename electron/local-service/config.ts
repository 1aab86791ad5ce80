/** One configuration for credits and limits; everything in `limits` is published in the catalog. */
import { IMAGE_FORMATS } from './media/image-decode.js';
import { VIDEO_FORMATS } from './media/video-probe.js';

export interface ServiceLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  maxVideoSeconds: number;
  maxImagePixels: number;
  maxAnalysedSide: number;
  imageFormats: readonly string[];
  videoFormats: readonly string[];
  /** Image requests in flight per token. */
  maxConcurrentRequests: number;
  /** Video jobs running at once on this service. */
  maxConcurrentJobs: number;
  /** Video jobs waiting on this service; past it, 429. */
  maxQueuedJobs: number;
  /** Frames a token may spend in one clock hour. */
  hourFrames: number;
  sessionFrames: number;
  trialKeyFrames: number;
  /** Frames a device or a network may receive through sessions and trial keys in one UTC day. */
  deviceDayFrames: number;
  networkDayFrames: number;
  videoSampleFps: number;
  pollIntervalMs: { min: number; max: number };
}

export interface ServiceTimes {
  sessionTtlMs: number;
  trialKeyTtlMs: number;
  /** How long a whole request (headers and body) may take. */
  requestTimeoutMs: number;
  /** How long the request line and headers may take. */
  headersTimeoutMs: number;
  /** How long a request body may go without a byte. */
  bodyIdleTimeoutMs: number;
}

export interface ServiceConfig {
  limits: ServiceLimits;
  times: ServiceTimes;
  defaultApiKeyFrames: number;
  /** When set, POST /session demands this turnstileToken (stands in for the challenge verifier). */
  challengeToken?: string;
}

export function defaultConfig(
  overrides: { hourFrames?: number; challengeToken?: string; limits?: Partial<ServiceLimits> } = {},
): ServiceConfig {
  return {
    limits: {
      maxImageBytes: 20 * 1024 * 1024,
      maxVideoBytes: 512 * 1024 * 1024,
      maxVideoSeconds: 600,
      maxImagePixels: 100_000_000,
      maxAnalysedSide: 1024,
      imageFormats: IMAGE_FORMATS,
      videoFormats: VIDEO_FORMATS,
      maxConcurrentRequests: 4,
      maxConcurrentJobs: 2,
      maxQueuedJobs: 16,
      hourFrames: overrides.hourFrames ?? 20_000,
      sessionFrames: 200,
      trialKeyFrames: 1_000,
      // One session and its trial key a day per device.
      deviceDayFrames: 1_200,
      // Ten devices' worth per network (an office behind one address).
      networkDayFrames: 12_000,
      videoSampleFps: 5,
      pollIntervalMs: { min: 250, max: 5_000 },
      ...overrides.limits,
    },
    times: {
      sessionTtlMs: 60 * 60 * 1000,
      trialKeyTtlMs: 7 * 24 * 60 * 60 * 1000,
      requestTimeoutMs: 10 * 60 * 1000,
      headersTimeoutMs: 15_000,
      bodyIdleTimeoutMs: 30_000,
    },
    defaultApiKeyFrames: 100_000,
    ...(overrides.challengeToken ? { challengeToken: overrides.challengeToken } : {}),
  };
}

/** Frames a clip will cost: every sampled frame, at the solution's per-frame price. */
export function sampledFrameCount(durationMs: number, sampleFps: number): number {
  return Math.max(1, Math.ceil((durationMs / 1000) * sampleFps));
}
