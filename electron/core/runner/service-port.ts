/**
 * What the runner needs from a detection service; `ServiceClient` provides it. The shapes are the
 * service adapter's (electron/core/service/adapter/adapter-types.ts), narrowed to what is used.
 */
import type { Box } from '../../shared/geometry/box.js';
import type {
  AnswerAsReceived,
  AnswerContext,
  FrameCost,
  ServiceLimits,
} from '../service/adapter/adapter-types.js';

/** The one box of electron/shared, as detections carry it. */
export type WireBox = Box;

export interface WireDetection {
  label: string;
  classId?: number | null;
  /** `null`: the service gave no score. */
  score: number | null;
  bbox: WireBox;
}

/** Each field `null` when the service did not say it. */
export interface CreditsState {
  spent: number | null;
  remaining: number | null;
  hourRemaining: number | null;
}

export interface ImageAnswer {
  detections: WireDetection[];
  image: { analysedWidth: number | null; analysedHeight: number | null };
  stats: { model?: string | null };
  /** `null` when the answer carried no credits LabelDesk recognises. */
  credits: CreditsState | null;
  /** The answer as received when its boxes' origin was assumed (kept to be read again). */
  assumedOrigin?: AnswerAsReceived;
}

export interface VideoSubmitted {
  jobId: string;
  status: string;
  pollIntervalMs?: number | null;
  /** `reserved`: the frames the service holds for the clip from now on (what the key pays). */
  credits?: (Partial<CreditsState> & { reserved?: number | null }) | null;
}

export interface JobAnswer {
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress?: number | null;
  pollIntervalMs?: number | null;
  result?: {
    analysedWidth: number | null;
    analysedHeight: number | null;
    frames: { index: number; timeMs: number | null; detections: WireDetection[] }[];
  } | null;
  error?: { code: string; message: string } | null;
  /** As for ImageAnswer. */
  assumedOrigin?: AnswerAsReceived;
}

export interface CatalogView {
  version: string;
  solutions: {
    id: string;
    media: string[];
    classes: string[];
    classIds?: number[];
    /** `null`: not published in a form LabelDesk reads. */
    frameCost: FrameCost;
  }[];
  limits: Pick<
    ServiceLimits,
    | 'maxImageBytes'
    | 'maxVideoBytes'
    | 'maxVideoSeconds'
    | 'imageFormats'
    | 'videoFormats'
    | 'maxConcurrentRequests'
    | 'maxConcurrentJobs'
    | 'hourFrames'
    | 'videoSampleFps'
    | 'pollIntervalMs'
  >;
}

export interface KeyView {
  audience: string;
  remaining: number;
  hourRemaining: number;
  expiresAt: string | null;
}

export interface ServicePort {
  readonly baseUrl: string;
  catalog(signal?: AbortSignal): Promise<CatalogView>;
  keyStatus(signal?: AbortSignal): Promise<KeyView>;
  inferImage(input: {
    solution: string;
    file: string;
    /** The file's bytes, read when it was checked: sent instead of reading `file` again. */
    bytes?: Uint8Array;
    signal?: AbortSignal;
    solutionClasses?: AnswerContext['solution'];
  }): Promise<ImageAnswer>;
  submitVideo(input: {
    solution: string;
    file: string;
    signal?: AbortSignal;
  }): Promise<VideoSubmitted>;
  job(
    id: string,
    signal?: AbortSignal,
    context?: { solutionClasses?: AnswerContext['solution']; clipDurationMs?: number | null },
  ): Promise<JobAnswer>;
  cancelJob(id: string): Promise<unknown>;
}
