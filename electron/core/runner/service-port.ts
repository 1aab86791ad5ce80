/** What the runner needs from a detection service; `ServiceClient` provides it. */

export interface WireBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface WireDetection {
  label: string;
  classId?: number | null;
  score: number;
  bbox: WireBox;
  bboxPx: WireBox;
}

/** Credits as an answer reports them; any part may be missing (then GET /key tells). */
export interface CreditsState {
  spent?: number | null | undefined;
  remaining?: number | null | undefined;
  hourRemaining?: number | null | undefined;
}

export interface ImageAnswer {
  detections: WireDetection[];
  image: { width: number; height: number; analysedWidth: number; analysedHeight: number };
  stats: { model?: string | null };
  credits?: CreditsState | null | undefined;
}

export interface VideoSubmitted {
  jobId: string;
  status: string;
  pollIntervalMs?: number | null;
  /** `reserved`: the frames the service holds for the clip from now on (what the key pays). */
  credits?: (CreditsState & { reserved?: number | null | undefined }) | null | undefined;
}

export interface JobAnswer {
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress?: number | null;
  pollIntervalMs?: number | null;
  result?: {
    analysedWidth: number;
    analysedHeight: number;
    frames: { index: number; timeMs: number; detections: WireDetection[] }[];
  } | null;
  error?: { code: string; message: string } | null;
}

export interface CatalogView {
  version: string;
  solutions: {
    id: string;
    media: string[];
    classes: string[];
    /** null: not published in a form LabelDesk reads (learnt from the first call). */
    frameCost: { image: number | null; videoFrame: number | null };
  }[];
  limits: {
    maxImageBytes: number;
    maxVideoBytes: number;
    maxVideoSeconds: number;
    imageFormats: string[];
    videoFormats: string[];
    maxConcurrentRequests: number;
    maxConcurrentJobs: number;
    hourFrames: number;
    videoSampleFps: number;
    pollIntervalMs: { min: number; max: number };
  };
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
  inferImage(input: { solution: string; file: string; signal?: AbortSignal }): Promise<ImageAnswer>;
  submitVideo(input: {
    solution: string;
    file: string;
    signal?: AbortSignal;
  }): Promise<VideoSubmitted>;
  job(id: string, signal?: AbortSignal): Promise<JobAnswer>;
  cancelJob(id: string): Promise<unknown>;
}
