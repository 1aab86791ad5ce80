/**
 * What the service adapter hands to the rest of LabelDesk: one typed value per answer, whatever
 * form the service chose where the interface is silent. These shapes are stable; readers of
 * other forms change inside the adapter only.
 *
 * Conventions:
 * - `null` means "the service did not publish it (or not in a form we recognise)". It never means
 *   zero. The caller decides the fallback (e.g. a frame cost is learnt, the clip's probe gives fps).
 * - Fields the interface requires (solutions[].id, a detection's bbox and bboxPx, a 202's jobId,
 *   GET /key's remaining and hourRemaining) are never null: without them the answer is refused
 *   (catalog, key) or kept raw (a paid inference answer, see AnswerNotUnderstoodError).
 * - `understanding` lists what was read in an alternative form ("understood as …") and what was
 *   absent and replaced by a named default ("not published by the service: using …"), so doctor,
 *   the Service screen and `labeldesk status` can say it in plain words.
 */
import type { Box as SharedBox } from '../../../shared/geometry/box.js';

export const MEDIA_KINDS = ['image', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** One remark of the adapter about an answer. Deduplicated per answer (one per field and text). */
export interface AdapterNote {
  /** Where, in the form people grep for: `catalog.solutions[].frameCost`, `detections[].bbox`. */
  field: string;
  /**
   * `understood-as`: a recognised alternative form was read (`text` says which);
   * `not-published`: absent or unrecognised, a named default or another source is used instead.
   */
  kind: 'understood-as' | 'not-published';
  /** A sentence for people, e.g. "understood as {xmin,ymin,xmax,ymax} (corners)". */
  text: string;
}

/** Per-service reading setting (kept by the application per service, default `corner`). */
export interface ReadingSettings {
  /** Whether a box's `x,y` (or an x,y,w,h array's first two numbers) is its top-left corner or its centre. */
  boxOrigin: 'corner' | 'centre';
  /**
   * False when nobody has said which it is (no person's choice, no word in the catalog): then an
   * answer whose boxes read both ways is decided by its evidence, or read as corners and said to
   * be undecided (see decide-origin.ts). Absent: known (the embedded service, a person's choice).
   */
  originConfirmed?: boolean;
  /**
   * Where the boxes of this service's earlier undecided answers sat, summed (one client, one
   * run): many answers together may decide what one cannot. Updated by the adapter.
   */
  originEvidence?: OriginEvidence;
}

/** Sums over boxes of (2x + w − 1) and (2y + h − 1), read with x,y as the corner and the centre. */
export interface OriginEvidence {
  boxes: number;
  cornerX: number;
  cornerY: number;
  centreX: number;
  centreY: number;
}

export const DEFAULT_READING: ReadingSettings = { boxOrigin: 'corner' };

/** The field of the notes on how the box origin was decided (or that it was not). */
export const BOX_ORIGIN_FIELD = 'box origin';

/** A box as LabelDesk stores it: top-left corner and size (the one box of electron/shared), in the unit of its form. */
export type Box = SharedBox;

/** Per-call frame costs; `null` = not published in a form we know (to be learnt by the runner). */
export interface FrameCost {
  image: number | null;
  videoFrame: number | null;
}

export interface CatalogSolution {
  id: string;
  name?: string;
  description?: string;
  /** The media the service names; both kinds when it names none (LabelDesk then tries both). */
  media: MediaKind[];
  /** Class names, in the service's order. */
  classes: string[];
  /**
   * The ids of `classes` when the service published them as `{id, name}` (same order); absent when
   * they were plain strings, in which case a detection's class index is a position in `classes`.
   */
  classIds?: number[];
  frameCost: FrameCost;
}

/** A limit LabelDesk needed that the catalog did not publish, and the default it uses instead. */
export interface NotPublishedLimit {
  /** Our name of the limit, e.g. `maxVideoSeconds`. */
  name: string;
  /** The value used, for people: "600 s", "20 MB", "jpeg, png, webp". */
  using: string;
}

/**
 * Every limit LabelDesk uses, always filled: the service's value when published under a recognised
 * name, else a conservative named default listed in `notPublished`.
 */
export interface ServiceLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  maxVideoSeconds: number;
  imageFormats: string[];
  videoFormats: string[];
  maxConcurrentRequests: number;
  maxConcurrentJobs: number;
  maxQueuedJobs: number;
  hourFrames: number;
  sessionFrames?: number;
  /** The most detections the service returns for one image (or frame), when it says so. */
  maxDetections?: number;
  trialKeyFrames?: number;
  videoSampleFps: number;
  pollIntervalMs: { min: number; max: number };
  notPublished: NotPublishedLimit[];
}

export interface SdkEntry {
  lang: string;
  path: string;
  filename?: string;
}

export interface Catalog {
  version: string;
  /** Where the catalog says x,y of a box is (`boxOrigin`, `bboxOrigin`…); null when it does not. */
  boxOrigin: 'corner' | 'centre' | null;
  aiStatus: string | null;
  limits: ServiceLimits;
  sdk: SdkEntry[];
  solutions: CatalogSolution[];
  understanding: AdapterNote[];
}

export interface Health {
  status: string;
  uptimeSec: number | null;
  enabled: boolean | null;
  ai: string | null;
  /** Per-solution status when published as an object of strings; `{}` otherwise. */
  solutions: Record<string, string>;
}

export interface Session {
  token: string;
  credits: number | null;
  expiresAt: string | null;
  deviceFramesLeft: number | null;
  networkFramesLeft: number | null;
}

/** GET /key. `remaining` and `hourRemaining` are required by the interface. */
export interface KeyStatus {
  /** `unknown` when not published. */
  audience: string;
  remaining: number;
  hourRemaining: number;
  expiresAt: string | null;
}

export interface SdkKey {
  key: string;
  frames: number | null;
  expiresAt: string | null;
  notice: string | null;
}

/**
 * The credit state an answer carried. The whole object is `null` in an answer when the service
 * sent none we recognise: the spend is then read from GET /key (before and after) by the caller.
 */
export interface Credits {
  spent: number | null;
  remaining: number | null;
  hourRemaining: number | null;
  /** Frames held for a queued clip (video submit only). */
  reserved: number | null;
}

export interface Detection {
  /** The class name: given, or looked up from a class index in the solution's classes. */
  label: string;
  classId: number | null;
  /** 0–1 (a percentage is divided by 100); `null` when the service gave no score. */
  score: number | null;
  /** Normalised 0–1, top-left corner and size. */
  bbox: Box;
  /** Pixels of the analysed resolution, top-left corner and size. */
  bboxPx: Box;
}

export interface ImageInfo {
  width: number | null;
  height: number | null;
  /** Published, or derived from bbox against bboxPx (noted); `null` when nothing tells. */
  analysedWidth: number | null;
  analysedHeight: number | null;
  format: string | null;
}

export interface ImageResult {
  detections: Detection[];
  image: ImageInfo;
  stats: { model: string | null; inferenceMs: number | null; totalMs: number | null };
  credits: Credits | null;
  understanding: AdapterNote[];
  /** Set when the box origin was assumed (undecided): the answer as received, to read again. */
  assumedOrigin?: AnswerAsReceived;
}

/**
 * A paid answer as received, handed on when its boxes were read with the box origin assumed
 * (nothing decided it): kept, and read again once a person confirms the origin (issue 23).
 */
export interface AnswerAsReceived {
  httpStatus: number;
  body: string;
}

/** LabelDesk's job states; the service's own word is kept in `serviceStatus`. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobError {
  code: string;
  message: string;
}

export interface VideoSubmission {
  jobId: string;
  /** As given, else derived as `/jobs/{jobId}` (the interface's poll path). */
  pollUrl: string;
  status: JobStatus;
  serviceStatus: string | null;
  queuePosition: number | null;
  pollIntervalMs?: number;
  credits: Credits | null;
  understanding: AdapterNote[];
}

export interface VideoFrame {
  index: number;
  /** Milliseconds from the clip's start (a time in seconds is converted, and noted). */
  timeMs: number | null;
  detections: Detection[];
}

/** Everything but `frames` is optional: the clip's own probe supplies it. */
export interface VideoResult {
  fps: number | null;
  sampledFps: number | null;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  analysedWidth: number | null;
  analysedHeight: number | null;
  frames: VideoFrame[];
}

export interface Job {
  jobId: string | null;
  /**
   * `succeeded` when `result` is present (an `error` beside it is a remark kept with it), `failed`
   * when the word says so or only `error` is present, a known word of the service otherwise
   * (queued/cancelled), and `running` for any word we do not know.
   */
  status: JobStatus;
  serviceStatus: string | null;
  /** 0–1 when the service published a number. */
  progress: number | null;
  queuePosition: number | null;
  pollIntervalMs?: number;
  result: VideoResult | null;
  error: JobError | null;
  understanding: AdapterNote[];
  /** As for ImageResult: the poll as received when its boxes' origin was assumed. */
  assumedOrigin?: AnswerAsReceived;
}

/** After DELETE any answer counts as cancelled. */
export interface CancelAck {
  jobId: string | null;
  status: 'cancelled';
  serviceStatus: string | null;
}

/** What the adapter needs to know to read an inference answer. */
export interface AnswerContext {
  reading?: ReadingSettings;
  /** The solution asked for: its classes turn a class index into a name. */
  solution?: Pick<CatalogSolution, 'classes' | 'classIds'>;
  /** The clip's own duration (probe): decides whether frame times are in seconds or ms. */
  clipDurationMs?: number | null;
}
