/**
 * A detection service for tests that follows service-interface.md (and the shapes DESIGN.md
 * names) in everything except ONE misbehaviour, chosen when it starts: an answer of 1 GiB, an
 * answer that never ends, one that trickles a byte at a time, a million detections, a poll
 * interval of 0 or 10^12, a Retry-After of 10^9 seconds, a poll with both `result` and `error`.
 * It keeps its own count of what it charged, of every call (with when the caller let go of it)
 * and of every upload by content, so tests compare LabelDesk's behaviour with it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readUpload } from './read-upload.js';
import type { AddressInfo } from 'node:net';
import {
  CLIP_FRAMES,
  clipResult,
  detection,
  imageAnswer,
  streamDetections,
  TINY_DETECTION,
  trickle,
  type CreditsView,
} from './misbehaving-answers.js';

export type Misbehaviour =
  | 'none'
  /** POST /infer/image answers 200 with a 1 GiB body (valid JSON, streamed). */
  | 'huge-answer'
  /** POST /infer/image answers 200, chunked, and never ends. */
  | 'endless-answer'
  /** POST /infer/image answers 200 one byte every `trickleMs`. */
  | 'trickle'
  /** POST /infer/image answers 10^6 detections (the same form as the well-behaved answer). */
  | 'million-detections'
  /** POST /infer/image answers 20,000 detections in the fewest bytes (a small, implausible answer). */
  | 'implausible-detections'
  /** The catalog's and every job answer's pollIntervalMs is 0. */
  | 'poll-zero'
  /** The catalog's and every job answer's pollIntervalMs is 10^12. */
  | 'poll-huge'
  /** POST /infer/image answers 429 with `Retry-After: 1000000000`. */
  | 'retry-after-huge'
  /** POST /infer/image answers 503 with `Retry-After: 600` (longer than a request is held). */
  | 'retry-after-long'
  /** A finished (`succeeded`) job's poll carries both `result` and `error`. */
  | 'result-and-error'
  /** A finished job's poll answers a result that never ends (chunked). */
  | 'endless-result'
  /** GET /catalog answers 200, chunked, and never ends. */
  | 'endless-catalog'
  /** Legal but unusual: POST /infer/image answers one detection without a score, one at 0.3. */
  | 'no-scores';

export interface CallRecord {
  method: string;
  path: string;
  at: number;
  /** Milliseconds from the request's arrival to the caller closing or the answer ending. */
  heldMs?: number;
}

export interface MisbehavingService {
  url: string;
  key: string;
  misbehaviour: Misbehaviour;
  /** Frames charged so far: the service's own count. */
  readonly charged: number;
  readonly calls: readonly CallRecord[];
  /** Uploads accepted (and charged) per content hash (sha256 of the file's bytes). */
  readonly uploads: ReadonlyMap<string, number>;
  /** Bytes of answer bodies written (a client that stops reading stops this growing). */
  readonly answerBytes: number;
  /** Calls of `method path` (a prefix of the path matches). */
  count(method: string, pathPrefix: string): number;
  close(): Promise<void>;
}

export interface MisbehavingOptions {
  key?: string;
  frames?: number;
  /** Between two bytes of the `trickle` answer (default 2 s). */
  trickleMs?: number;
  /** How long a job runs before it is finished (default 1.5 s). */
  jobMs?: number;
  /** A well-behaved image answer comes after this long (default at once). */
  imageLatencyMs?: number;
  /** Published as `limits.max_det` (the most detections an image answer carries). */
  maxDetections?: number;
}

const GIB = 1024 ** 3;

export async function startMisbehavingService(
  misbehaviour: Misbehaviour,
  options: MisbehavingOptions = {},
): Promise<MisbehavingService> {
  const key = options.key ?? 'mis_key_000000000000000001';
  const jobMs = options.jobMs ?? 1500;
  const state = { charged: 0, remaining: options.frames ?? 1_000_000, answerBytes: 0, jobs: 0 };
  const calls: CallRecord[] = [];
  const uploads = new Map<string, number>();
  const jobs = new Map<string, { startedAt: number }>();
  const pollMs = misbehaviour === 'poll-zero' ? 0 : misbehaviour === 'poll-huge' ? 1e12 : 300;
  const credits = (spent: number): CreditsView => ({
    spent,
    remaining: state.remaining,
    hourRemaining: Math.min(state.remaining, 100_000),
  });
  const charge = (frames: number) => {
    state.charged += frames;
    state.remaining -= frames;
  };
  const send = (res: ServerResponse, status: number, body: unknown, headers = {}): void => {
    const text = JSON.stringify(body);
    state.answerBytes += text.length;
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
  };
  const fail = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
    send(res, status, { error: { code, message } }, headers);

  const catalog = () => ({
    version: 'misbehaving-1',
    aiStatus: 'ok',
    limits: {
      maxImageBytes: 20 * 1024 * 1024,
      maxVideoBytes: 200 * 1024 * 1024,
      maxVideoSeconds: 60,
      imageFormats: ['jpeg', 'png'],
      videoFormats: ['mp4'],
      maxConcurrentRequests: 2,
      maxConcurrentJobs: 1,
      maxQueuedJobs: 4,
      hourFrames: 100_000,
      videoSampleFps: 2,
      pollIntervalMs: pollMs === 300 ? { min: 250, max: 2000 } : { min: pollMs, max: pollMs },
      ...(options.maxDetections !== undefined ? { max_det: options.maxDetections } : {}),
    },
    sdk: [],
    solutions: [
      {
        id: 'objects',
        name: 'Objects',
        description: 'people',
        media: ['image', 'video'],
        classes: ['person'],
        frameCost: { image: 1, videoFrame: 1 },
      },
    ],
  });

  const jobView = (id: string, startedAt: number) => {
    if (Date.now() - startedAt < jobMs) {
      return {
        jobId: id,
        status: 'running',
        progress: 0.5,
        queuePosition: 0,
        pollIntervalMs: pollMs,
      };
    }
    const done = { jobId: id, progress: 1, queuePosition: 0, pollIntervalMs: pollMs };
    if (misbehaviour === 'result-and-error') {
      return {
        ...done,
        status: 'succeeded',
        result: clipResult(),
        error: { code: 'frames_skipped', message: 'Two frames could not be decoded.' },
      };
    }
    return { ...done, status: 'succeeded', result: clipResult() };
  };

  /** An accepted (charged) upload of the file with content `hash`. */
  const accepted = (hash: string) => uploads.set(hash, (uploads.get(hash) ?? 0) + 1);

  const inferImage = async (res: ServerResponse, hash: string): Promise<void> => {
    if (misbehaviour === 'retry-after-huge') {
      return fail(res, 429, 'too_many_requests', 'Too many requests.', {
        'retry-after': '1000000000',
      });
    }
    if (misbehaviour === 'retry-after-long') {
      return fail(res, 503, 'engine_warming', 'The detection engine is warming up.', {
        'retry-after': '600',
      });
    }
    accepted(hash);
    charge(1);
    const paid = credits(1);
    switch (misbehaviour) {
      case 'huge-answer': {
        const item = JSON.stringify(detection(0));
        state.answerBytes += await streamDetections(res, item, Math.ceil(GIB / item.length), paid);
        return;
      }
      case 'endless-answer':
        state.answerBytes += await streamDetections(
          res,
          JSON.stringify(detection(0)),
          Infinity,
          paid,
        );
        return;
      case 'million-detections':
        state.answerBytes += await streamDetections(res, JSON.stringify(detection(0)), 1e6, paid);
        return;
      case 'implausible-detections':
        state.answerBytes += await streamDetections(res, TINY_DETECTION, 20_000, paid);
        return;
      case 'trickle':
        return trickle(
          res,
          JSON.stringify(imageAnswer([detection(0)], paid)),
          options.trickleMs ?? 2000,
        );
      case 'no-scores': {
        const { score: _none, ...scoreless } = detection(0) as { score: number };
        const low = { ...detection(1), label: 'dog', score: 0.3 };
        return send(res, 200, imageAnswer([scoreless, low], paid));
      }
      default:
        if (options.imageLatencyMs)
          await new Promise((resolve) => setTimeout(resolve, options.imageLatencyMs));
        return send(res, 200, imageAnswer([detection(0), detection(1)], paid));
    }
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/catalog') {
      if (misbehaviour !== 'endless-catalog') return send(res, 200, catalog());
      state.answerBytes += await streamDetections(
        res,
        JSON.stringify(detection(0)),
        Infinity,
        credits(0),
      );
      return;
    }
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, { status: 'ok' });
    if (req.headers.authorization !== `Bearer ${key}`)
      return fail(res, 401, 'unauthorized', 'Missing or unknown token.');
    if (req.method === 'GET' && path === '/key') {
      return send(res, 200, { audience: 'api_key', ...credits(0), expiresAt: null });
    }
    const job = /^\/jobs\/([^/]+)$/.exec(path);
    if (job) {
      const id = decodeURIComponent(job[1] ?? '');
      const found = jobs.get(id);
      if (!found) return fail(res, 404, 'not_found', 'No such job.');
      if (req.method === 'DELETE') return send(res, 200, { jobId: id, status: 'cancelled' });
      const view = jobView(id, found.startedAt);
      if (misbehaviour === 'endless-result' && view.status === 'succeeded') {
        const item = JSON.stringify(detection(0));
        state.answerBytes += await streamDetections(res, item, Infinity, credits(0));
        return;
      }
      return send(res, 200, view);
    }
    if (req.method === 'POST' && (path === '/infer/image' || path === '/infer/video')) {
      const upload = await readUpload(req);
      if (upload.fields.solution !== 'objects')
        return fail(res, 400, 'unknown_solution', 'Unknown solution.');
      if (!upload.file?.length) return fail(res, 422, 'empty', 'Empty upload.');
      const hash = createHash('sha256').update(upload.file).digest('hex');
      if (path === '/infer/image') return inferImage(res, hash);
      accepted(hash);
      charge(CLIP_FRAMES);
      const id = String(++state.jobs);
      jobs.set(id, { startedAt: Date.now() });
      return send(res, 202, {
        jobId: id,
        status: 'queued',
        queuePosition: 0,
        pollUrl: `/jobs/${id}`,
        pollIntervalMs: pollMs,
        credits: credits(CLIP_FRAMES),
      });
    }
    return fail(res, 404, 'not_found', `No route ${req.method ?? ''} ${path}.`);
  };

  const server = createServer((req, res) => {
    const record: CallRecord = {
      method: req.method ?? '',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      at: Date.now(),
    };
    calls.push(record);
    res.on('close', () => (record.heldMs = Date.now() - record.at));
    void route(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'internal', String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    misbehaviour,
    get charged() {
      return state.charged;
    },
    get answerBytes() {
      return state.answerBytes;
    },
    calls,
    uploads,
    count: (method, prefix) =>
      calls.filter((c) => c.method === method && c.path.startsWith(prefix)).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
