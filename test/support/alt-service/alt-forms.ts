/**
 * The alt service's choices where service-interface.md is silent, one set per variant. Together
 * the variants show every alternative form LabelDesk reads (issue 16 §1) at least once:
 *  a: {xmin,ymin,xmax,ymax} boxes, `class` + `confidence` 0–100, no credits, statuses
 *     "waiting"/"processing"/"done", `{"detail"}` errors, limits under other names or missing,
 *     costs as `cost: {perImage, perFrame}`, frames `frameIndex` + `timestamp` (ms), progress in %.
 *  b: x1,y1,x2,y2 arrays, `classId` into `{id, name}` classes, `{"error": "…"}` errors, frames
 *     `frame` + `t` (seconds), a single `frameCost` number, credits `{used, left, hour_left}`,
 *     and a 202 of `{job_id (a number), state, eta, credits: "n/a"}` (no pollUrl).
 *  c: x,y = centre `{x,y,width,height}` beside `{x1,y1,x2,y2}` pixels, `name` + `probability`,
 *     no frame cost published, `{"message"}` errors, credits `{spent, balance}`, a 202 with `id`.
 *  d: like b but every box small and top-left, so its arrays cannot be decided: the answers are
 *     charged and unreadable (kept raw by LabelDesk), and errors are plain text.
 *  e: a clip result as one flat list of detections, each with its own `frame` and `timestampMs`
 *     (as AWS Rekognition's video results), an absolute pollUrl on its own host, plain-text
 *     errors and a 204 with no body on DELETE (issue 23 §2).
 *  f: bbox and bboxPx both `{x,y,w,h}` with x,y the corner, and every box well inside the picture,
 *     so they read alike with x,y as the corner or the centre: nothing decides (issue 23 §3).
 *  g: like f, but each image has a box at the picture's left edge: read with x,y as its centre it
 *     would lie outside the picture, which decides the corner.
 *  h: like f, but x,y is each box's centre (in bbox and bboxPx alike): read as corners until a
 *     person confirms the centre, which only a person can decide (issue 23).
 *  i: like h, but its second paid answer also has a box at the picture's right edge: read with
 *     x,y as its corner it would lie outside the picture, so that answer decides the centre;
 *     the answers before and after it decide nothing.
 */
import { boxesFor, CLASSES, type TruthBox } from './alt-detect.js';

export type AltVariant = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i';
export type AltJobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

interface Size {
  width: number;
  height: number;
}

export interface AltCredits {
  spent: number;
  remaining: number;
  hourRemaining: number;
}

export interface AltFrame {
  index: number;
  timeMs: number;
  boxes: TruthBox[];
}

export interface VariantForms {
  /** Frames charged per image and per analysed clip frame. */
  cost: { image: number; videoFrame: number };
  sampleFps: number;
  /** Whether its box arrays can be told apart (see alt-detect.ts). */
  decidable: boolean;
  /** Its own boxes instead of alt-detect.ts's; `paidCalls`: the calls charged before this one. */
  boxes?: (seed: string, paidCalls: number) => TruthBox[];
  catalog(): object;
  detection(b: TruthBox, analysed: Size): object;
  imageAnswer(detections: object[], analysed: Size, file: Size, credits: AltCredits): object;
  /** `base`: the service's own address (for an absolute pollUrl). */
  submitted(jobId: string, credits: AltCredits, base: string): object;
  job(state: AltJobState, progress: number, frames: object[] | null, analysed: Size): object;
  frame(f: AltFrame, detections: object[]): object;
  error(status: number, code: string, message: string): { type: string; body: string };
  cancelled(jobId: string): { status: number; body: string };
}

const json = (o: object) => ({ type: 'application/json', body: JSON.stringify(o) });
const px = (b: TruthBox, s: Size) => ({
  x1: b.x * s.width,
  y1: b.y * s.height,
  x2: (b.x + b.w) * s.width,
  y2: (b.y + b.h) * s.height,
});
const corners = (b: TruthBox) => [b.x, b.y, b.x + b.w, b.y + b.h];
const cornersPx = (b: TruthBox, s: Size) => {
  const p = px(b, s);
  return [p.x1, p.y1, p.x2, p.y2];
};
const WORDS_B: Record<AltJobState, string> = {
  queued: 'pending',
  running: 'running',
  done: 'completed',
  failed: 'failed',
  cancelled: 'canceled',
};

const variantA: VariantForms = {
  cost: { image: 3, videoFrame: 1 },
  sampleFps: 2,
  decidable: true,
  catalog: () => ({
    version: 3,
    solutions: [
      { id: 'objects', title: 'Objects', classes: CLASSES, cost: { perImage: 3, perFrame: 1 } },
    ],
    limits: { max_image_bytes: 50 * 1024 * 1024, concurrency: 2, MAX_JOBS: 1 },
  }),
  detection: (b, s) => {
    const p = px(b, s);
    return {
      class: CLASSES[b.classIndex],
      confidence: Math.round(b.score * 1000) / 10,
      bbox: { xmin: b.x, ymin: b.y, xmax: b.x + b.w, ymax: b.y + b.h },
      bboxPx: { xmin: p.x1, ymin: p.y1, xmax: p.x2, ymax: p.y2 },
    };
  },
  imageAnswer: (detections, _a, file) => ({ detections, image: { w: file.width, h: file.height } }),
  submitted: (jobId) => ({ jobId, status: 'waiting', pollUrl: `/jobs/${jobId}` }),
  job: (state, progress, frames) => ({
    status: {
      queued: 'waiting',
      running: 'processing',
      done: 'done',
      failed: 'error',
      cancelled: 'cancelled',
    }[state],
    progress: Math.round(progress * 100),
    ...(frames ? { result: { frames } } : {}),
    ...(state === 'failed' ? { error: { detail: 'the model crashed' } } : {}),
  }),
  frame: (f, detections) => ({ frameIndex: f.index, timestamp: f.timeMs, detections }),
  error: (_s, _c, message) => json({ detail: message }),
  cancelled: () => ({ status: 204, body: '' }),
};

const variantB: VariantForms = {
  cost: { image: 2, videoFrame: 2 },
  sampleFps: 2,
  decidable: true,
  catalog: () => ({
    version: 'b-7',
    aiStatus: 'ok',
    solutions: [
      {
        id: 'objects',
        media: ['image', 'video'],
        classes: CLASSES.map((name, i) => ({ id: (i + 1) * 10, name })),
        frameCost: 2,
      },
    ],
    limits: {
      maxImageBytes: 50 * 1024 * 1024,
      maxVideoBytes: 500 * 1024 * 1024,
      maxVideoSeconds: 120,
      imageFormats: ['jpg', 'png'],
      videoFormats: ['video/mp4'],
      maxConcurrentRequests: 2,
      maxConcurrentJobs: 1,
      maxQueuedJobs: 4,
      hourFrames: 100_000,
      sampleFps: 2,
      pollIntervalMs: 150,
    },
  }),
  detection: (b, s) => ({
    classId: (b.classIndex + 1) * 10,
    score: b.score,
    bbox: corners(b),
    bboxPx: cornersPx(b, s),
  }),
  imageAnswer: (detections, a, _f, c) => ({
    detections,
    image: { analysedWidth: a.width, analysedHeight: a.height },
    credits: { used: c.spent, left: c.remaining, hour_left: c.hourRemaining },
  }),
  submitted: (jobId) => ({ job_id: Number(jobId), state: 'pending', eta: 'soon', credits: 'n/a' }),
  job: (state, progress, frames, a) => ({
    state: WORDS_B[state],
    progress,
    ...(frames ? { result: { analysedWidth: a.width, analysedHeight: a.height, frames } } : {}),
    ...(state === 'failed' ? { error: 'the model crashed' } : {}),
  }),
  frame: (f, detections) => ({ frame: f.index, t: f.timeMs / 1000, detections }),
  error: (_s, _c, message) => json({ error: message }),
  cancelled: () => ({ status: 200, body: '{"ok":true}' }),
};

const variantC: VariantForms = {
  cost: { image: 2, videoFrame: 1 },
  sampleFps: 2,
  decidable: true,
  catalog: () => ({
    version: 'c',
    solutions: [{ id: 'objects', media: ['image', 'video'], classes: CLASSES }],
    limits: { videoSampleFps: 2, pollIntervalMs: { min: 100, max: 500 }, maxConcurrentRequests: 2 },
  }),
  detection: (b, s) => ({
    name: CLASSES[b.classIndex],
    probability: b.score,
    bbox: { x: b.x + b.w / 2, y: b.y + b.h / 2, width: b.w, height: b.h },
    bboxPx: px(b, s),
  }),
  imageAnswer: (detections, _a, _f, c) => ({
    detections,
    meta: { took: 3 },
    credits: { spent: c.spent, balance: c.remaining },
  }),
  submitted: (jobId) => ({ id: jobId, status: 'queued', queue: { position: 0 } }),
  job: (state, _p, frames) => ({
    status: {
      queued: 'queued',
      running: 'in_progress',
      done: 'success',
      failed: 'failure',
      cancelled: 'aborted',
    }[state],
    ...(frames ? { result: { frames } } : {}),
    ...(state === 'failed' ? { error: { message: 'the model crashed' } } : {}),
  }),
  frame: (f, detections) => ({ index: f.index, time: f.timeMs, detections }),
  error: (_s, _c, message) => json({ message }),
  cancelled: (jobId) => ({ status: 200, body: JSON.stringify({ deleted: jobId }) }),
};

const variantD: VariantForms = {
  ...variantB,
  decidable: false,
  error: (status, _c, message) => ({ type: 'text/plain', body: `${status} ${message}` }),
};

const variantE: VariantForms = {
  ...variantA,
  submitted: (jobId, _c, base) => ({ jobId, pollUrl: `${base}/jobs/${jobId}` }),
  job: (state, progress, frames) => ({
    ...variantA.job(state, progress, null, { width: 0, height: 0 }),
    ...(frames ? { result: { detections: (frames as object[][]).flat() } } : {}),
  }),
  // A frame is its detections, each carrying where it belongs; a frame with none leaves no trace.
  frame: (f, detections) =>
    detections.map((d) => ({ frame: f.index, timestampMs: f.timeMs, ...d })),
  error: (status, _c, message) => ({ type: 'text/plain', body: `${status} ${message}` }),
};

const xywh = (b: TruthBox, s: Size) => ({
  bbox: { x: b.x, y: b.y, w: b.w, h: b.h },
  bboxPx: { x: b.x * s.width, y: b.y * s.height, w: b.w * s.width, h: b.h * s.height },
});

/** Boxes whose x,y may be their corner or their centre: well inside, never near an edge. */
const inside = (seed: string): TruthBox[] =>
  boxesFor(seed, true).map((b, i) => ({ ...b, x: 0.3 + i * 0.2, y: 0.3, w: 0.15, h: 0.2 }));

const variantF: VariantForms = {
  ...variantA,
  boxes: inside,
  detection: (b, s) => ({ label: CLASSES[b.classIndex], score: b.score, ...xywh(b, s) }),
};

const variantG: VariantForms = {
  ...variantF,
  boxes: (seed) => [
    ...inside(seed),
    { classIndex: 2, score: 0.8, x: 0.01, y: 0.4, w: 0.2, h: 0.3 },
  ],
};

/** A truth box (corner) given with x,y as its centre. */
const centred = (b: TruthBox): TruthBox => ({ ...b, x: b.x + b.w / 2, y: b.y + b.h / 2 });

const variantH: VariantForms = {
  ...variantF,
  detection: (b, s) => variantF.detection(centred(b), s),
};

const variantI: VariantForms = {
  ...variantH,
  boxes: (seed, paidCalls) =>
    paidCalls === 1
      ? [...inside(seed), { classIndex: 2, score: 0.8, x: 0.75, y: 0.4, w: 0.2, h: 0.3 }]
      : inside(seed),
};

export const VARIANTS: Record<AltVariant, VariantForms> = {
  a: variantA,
  b: variantB,
  c: variantC,
  d: variantD,
  e: variantE,
  f: variantF,
  g: variantG,
  h: variantH,
  i: variantI,
};
