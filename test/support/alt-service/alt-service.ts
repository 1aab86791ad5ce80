/**
 * A second detection service for tests (never in the product): it follows service-interface.md in
 * everything the interface shows (ten endpoints' paths, bearer auth, 202 + job to poll, a failed
 * job as 200 with `error`, GET /key's remaining/hourRemaining) and makes other choices in every
 * unshown part (alt-forms.ts). It charges frames like a real service — also for answers LabelDesk
 * cannot read — and keeps its own count, so tests compare LabelDesk's accounting with it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readUpload } from '../read-upload.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  analysedSize,
  boxesFor,
  hashOf,
  imageSize,
  probeClip,
  type TruthBox,
} from './alt-detect.js';
import { VARIANTS, type AltFrame, type AltJobState, type AltVariant } from './alt-forms.js';

export interface AltJob {
  id: string;
  hash: string;
  state: AltJobState;
  frames: AltFrame[];
  analysed: { width: number; height: number };
  startedAt: number;
}

export interface AltService {
  url: string;
  variant: AltVariant;
  key: string;
  /** Frames charged so far: the service's own count. */
  readonly charged: number;
  /** Inference calls answered 2xx (each one charged). */
  readonly paidCalls: number;
  /** What was served per content hash: the image's boxes, or the clip's frames. */
  served: Map<string, { boxes?: TruthBox[]; frames?: AltFrame[] }>;
  jobs: Map<string, AltJob>;
  /** While true, jobs stay running (crash and cancel tests). */
  holdJobs: boolean;
  close(): Promise<void>;
}

const JOB_MS = 400;

export async function startAltService(
  variant: AltVariant,
  options: { key?: string; frames?: number } = {},
): Promise<AltService> {
  const forms = VARIANTS[variant];
  const boxesOf = (seed: string) =>
    forms.boxes ? forms.boxes(seed, state.paidCalls) : boxesFor(seed, forms.decidable);
  const key = options.key ?? `alt_${variant}_key_000000000001`;
  const tmp = await mkdtemp(join(tmpdir(), 'alt-service-'));
  const state = { charged: 0, paidCalls: 0, nextJob: 1, remaining: options.frames ?? 1_000_000 };
  const credits = (spent: number) => ({
    spent,
    remaining: state.remaining,
    hourRemaining: Math.min(state.remaining, 100_000),
  });
  const charge = (frames: number) => {
    state.charged += frames;
    state.remaining -= frames;
    state.paidCalls++;
  };
  const served: AltService['served'] = new Map();
  const jobs = new Map<string, AltJob>();
  const service: AltService = {
    url: '',
    variant,
    key,
    get charged() {
      return state.charged;
    },
    get paidCalls() {
      return state.paidCalls;
    },
    served,
    jobs,
    holdJobs: false,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await rm(tmp, { recursive: true, force: true });
    },
  };

  const fail = (res: ServerResponse, status: number, code: string, message: string): void => {
    const e = forms.error(status, code, message);
    res.writeHead(status, { 'content-type': e.type }).end(e.body);
  };
  const send = (res: ServerResponse, status: number, body: object): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const authorised = (req: IncomingMessage) => req.headers.authorization === `Bearer ${key}`;

  const jobView = (job: AltJob) => {
    if (job.state === 'queued' || job.state === 'running') {
      const done = !service.holdJobs && Date.now() - job.startedAt > JOB_MS;
      if (done) job.state = 'done';
      else job.state = Date.now() - job.startedAt > 50 ? 'running' : 'queued';
    }
    const progress =
      job.state === 'done' ? 1 : Math.min(0.9, (Date.now() - job.startedAt) / JOB_MS);
    const frames =
      job.state === 'done'
        ? job.frames.map((f) =>
            forms.frame(
              f,
              f.boxes.map((b) => forms.detection(b, job.analysed)),
            ),
          )
        : null;
    return forms.job(job.state, progress, frames, job.analysed);
  };

  const server = createServer((req, res) => {
    void route(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'internal', String(err));
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/catalog') return send(res, 200, forms.catalog());
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, { status: 'up' });
    if (!authorised(req)) return fail(res, 401, 'unauthorized', 'Missing or unknown token.');
    if (req.method === 'GET' && path === '/key') {
      return send(res, 200, {
        ...credits(state.charged),
        remaining: state.remaining,
        framesCharged: state.charged,
      });
    }
    const jobMatch = /^\/jobs\/([^/]+)$/.exec(path);
    if (jobMatch) {
      const job = jobs.get(decodeURIComponent(jobMatch[1] ?? ''));
      if (!job) return fail(res, 404, 'not_found', 'No such job.');
      if (req.method === 'GET') return send(res, 200, jobView(job));
      if (req.method === 'DELETE') {
        if (job.state === 'queued' || job.state === 'running') job.state = 'cancelled';
        const ack = forms.cancelled(job.id);
        res
          .writeHead(ack.status, ack.body ? { 'content-type': 'application/json' } : {})
          .end(ack.body);
        return;
      }
    }
    if (req.method === 'POST' && (path === '/infer/image' || path === '/infer/video')) {
      const upload = await readUpload(req);
      if (upload.fields.solution !== 'objects') {
        return fail(
          res,
          400,
          'unknown_solution',
          `Unknown solution ${upload.fields.solution ?? ''}.`,
        );
      }
      if (!upload.file || upload.file.length === 0) return fail(res, 422, 'empty', 'Empty upload.');
      const hash = hashOf(upload.file);
      if (path === '/infer/image') {
        const size = await imageSize(upload.file);
        if (!size) return fail(res, 415, 'unsupported', 'That is not an image this service reads.');
        if (state.remaining < forms.cost.image)
          return fail(res, 402, 'no_frames', 'Out of frames.');
        const analysed = analysedSize(size.width, size.height);
        const boxes = boxesOf(hash);
        charge(forms.cost.image);
        served.set(hash, { boxes });
        const detections = boxes.map((b) => forms.detection(b, analysed));
        return send(
          res,
          200,
          forms.imageAnswer(detections, analysed, size, credits(forms.cost.image)),
        );
      }
      const file = join(tmp, `${hash}.clip`);
      await writeFile(file, upload.file);
      const probe = await probeClip(file);
      if (!probe) return fail(res, 422, 'undecodable', 'That clip cannot be decoded.');
      const count = Math.max(1, Math.ceil((probe.durationMs / 1000) * forms.sampleFps));
      const cost = count * forms.cost.videoFrame;
      if (state.remaining < cost) return fail(res, 402, 'no_frames', 'Out of frames.');
      const frames: AltFrame[] = Array.from({ length: count }, (_, index) => ({
        index,
        timeMs: Math.round((index * 1000) / forms.sampleFps),
        boxes: boxesOf(`${hash}:${index}`),
      }));
      // Charged at submission, for every frame it will analyse (no refunds).
      charge(cost);
      served.set(hash, { frames });
      const id = String(state.nextJob++);
      jobs.set(id, {
        id,
        hash,
        state: 'queued',
        frames,
        analysed: analysedSize(probe.width, probe.height),
        startedAt: Date.now(),
      });
      return send(res, 202, forms.submitted(id, credits(cost), service.url));
    }
    return fail(res, 404, 'not_found', `No route ${req.method ?? ''} ${path}.`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}
