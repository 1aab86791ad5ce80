import { describe, expect, it } from 'vitest';
import {
  parseCancelAck,
  parseCatalog,
  parseErrorBody,
  parseJob,
  parseJsonText,
  parseKeyStatus,
  parseVideoSubmission,
} from '../../../../electron/core/service/service-adapter.js';
import {
  AnswerNotUnderstoodError,
  ServiceShapeError,
} from '../../../../electron/core/service/service-errors.js';

/** Our embedded service's catalog form. */
const catalog = () => ({
  version: '0.1.0',
  aiStatus: 'ready',
  limits: {
    maxImageBytes: 20_971_520,
    maxVideoBytes: 536_870_912,
    maxVideoSeconds: 600,
    imageFormats: ['jpeg', 'png'],
    videoFormats: ['mp4'],
    maxConcurrentRequests: 4,
    maxConcurrentJobs: 2,
    maxQueuedJobs: 16,
    hourFrames: 20_000,
    videoSampleFps: 5,
    pollIntervalMs: { min: 250, max: 5000 },
  },
  sdk: [{ lang: 'ts', path: '/sdk/ts', filename: 'labeldesk.ts' }],
  solutions: [
    {
      id: 'objects',
      media: ['image', 'video'],
      classes: ['person'],
      frameCost: { image: 4, videoFrame: 2 },
    },
  ],
});

const thrown = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
};

describe('service adapter: where the interface speaks', () => {
  it('reads our own catalog with nothing to note and tolerates extra fields', () => {
    const raw: any = catalog();
    raw.newTopLevel = { anything: true };
    raw.solutions[0].media.push('audio');
    const parsed = parseCatalog(raw);
    expect(parsed.limits.pollIntervalMs).toEqual({ min: 250, max: 5000 });
    expect(parsed.solutions[0]!.media).toEqual(['image', 'video']);
    expect(parsed.solutions[0]!.frameCost).toEqual({ image: 4, videoFrame: 2 });
    expect(parsed.limits.notPublished).toEqual([]);
    expect(parsed.understanding).toEqual([]);
  });

  it('requires solutions[].id and names the field', () => {
    const raw: any = catalog();
    delete raw.solutions[0].id;
    const err = thrown(() => parseCatalog(raw));
    expect(err).toBeInstanceOf(ServiceShapeError);
    expect(err.message).toBe('catalog.solutions[0].id: required (the interface names it)');
  });

  it("requires GET /key's remaining and hourRemaining, nothing else", () => {
    expect(parseKeyStatus({ remaining: 5, hourRemaining: 3 })).toEqual({
      audience: 'unknown',
      remaining: 5,
      hourRemaining: 3,
      expiresAt: null,
    });
    expect(thrown(() => parseKeyStatus({ remaining: 5 })).message).toBe(
      'key.hourRemaining: required (the interface names it): expected a number',
    );
  });

  it('requires a jobId on a 202 and keeps the paid answer raw without one', () => {
    const err = thrown(() => parseVideoSubmission({ status: 'queued', credits: {} }));
    expect(err).toBeInstanceOf(AnswerNotUnderstoodError);
    expect((err as AnswerNotUnderstoodError).raw).toBe('{"status":"queued","credits":{}}');
    expect(err.message).toContain('videoSubmission.jobId: required');
  });

  it('says when a body is not JSON', () => {
    expect(thrown(() => parseJsonText('health', 'OK')).message).toBe(
      'health: expected a JSON body, got "OK"',
    );
  });
});

describe('service adapter: where the interface is silent', () => {
  it('reads limits under other names and lists the missing ones with what is used', () => {
    const raw: any = catalog();
    raw.limits = {
      max_image_bytes: 1000,
      MAX_CONCURRENCY: 3,
      formats: { image: ['JPG', 'image/png'] },
      minPollIntervalMs: 100,
      maxPollIntervalMs: 900,
    };
    const { limits, understanding } = parseCatalog(raw);
    expect(limits.maxImageBytes).toBe(1000);
    expect(limits.maxConcurrentRequests).toBe(3);
    expect(limits.imageFormats).toEqual(['jpeg', 'png']);
    expect(limits.pollIntervalMs).toEqual({ min: 100, max: 900 });
    expect(limits.maxConcurrentJobs).toBe(1);
    const missing = limits.notPublished.map((n) => n.name);
    expect(missing).toEqual(
      expect.arrayContaining([
        'maxVideoBytes',
        'maxVideoSeconds',
        'videoFormats',
        'videoSampleFps',
      ]),
    );
    expect(missing).not.toContain('maxImageBytes');
    expect(understanding).toContainEqual({
      field: 'catalog.limits.maxConcurrentJobs',
      kind: 'not-published',
      text: 'not published by the service: using one clip job at a time',
    });
  });

  it('reads {id, name} classes, a single cost for both, absent media, and unknown costs', () => {
    const raw: any = catalog();
    raw.solutions = [
      {
        id: 'a',
        classes: [
          { id: 7, name: 'cat' },
          { id: 9, name: 'dog' },
        ],
        cost: 3,
      },
      { id: 'b', classes: ['x'], media: ['images'] },
      { id: 'c', classes: ['x'], pricing: { perImage: 2, perFrame: 1 } },
    ];
    const { solutions, understanding } = parseCatalog(raw);
    expect(solutions[0]).toMatchObject({
      classes: ['cat', 'dog'],
      classIds: [7, 9],
      media: ['image', 'video'],
      frameCost: { image: 3, videoFrame: 3 },
    });
    expect(solutions[1]).toMatchObject({
      media: ['image'],
      frameCost: { image: null, videoFrame: null },
    });
    expect(solutions[2]!.frameCost).toEqual({ image: 2, videoFrame: 1 });
    const texts = understanding.map((n) => `${n.field}: ${n.text}`);
    expect(texts).toContain('catalog.solutions[a].classes: understood as {id, name} objects');
    expect(texts).toContain(
      'catalog.solutions[b].frameCost.image: not published by the service: using a cost learnt from the first image sent',
    );
  });

  it('reads any job status: result = finished, error = failed, unknown word = running', () => {
    expect(parseJob({ status: 'processing', progress: 40 })).toMatchObject({
      status: 'running',
      serviceStatus: 'processing',
      progress: 0.4,
    });
    expect(parseJob({ status: 'weird-state' })).toMatchObject({
      status: 'running',
      progress: null,
    });
    expect(parseJob({ status: 'PENDING' }).status).toBe('queued');
    expect(parseJob({ state: 'done', error: 'out of memory' })).toMatchObject({
      status: 'failed',
      error: { code: 'job_failed', message: 'out of memory' },
    });
    expect(parseJob({ status: 'done', result: { frames: [] } })).toMatchObject({
      status: 'succeeded',
      result: { frames: [], fps: null },
    });
    // A finished word without a result is refused by name, never guessed.
    expect(thrown(() => parseJob({ status: 'completed' })).message).toContain(
      'job.result: required for a finished job',
    );
  });

  it('counts any answer to DELETE as cancelled', () => {
    expect(parseCancelAck(undefined)).toEqual({
      jobId: null,
      status: 'cancelled',
      serviceStatus: null,
    });
    expect(parseCancelAck({ id: 5, state: 'deleted' })).toEqual({
      jobId: '5',
      status: 'cancelled',
      serviceStatus: 'deleted',
    });
  });

  it('yields the job of a 202 whose other fields do not fit, deriving pollUrl', () => {
    const sub = parseVideoSubmission({
      job_id: 42,
      status: 'accepted',
      credits: 'lots',
      eta: 'soon',
    });
    expect(sub).toMatchObject({
      jobId: '42',
      pollUrl: '/jobs/42',
      status: 'queued',
      credits: null,
    });
    expect(sub.understanding.map((n) => n.field)).toEqual(
      expect.arrayContaining([
        'videoSubmission.jobId',
        'videoSubmission.pollUrl',
        'videoSubmission.credits',
      ]),
    );
  });

  it('reads every error body form, with the HTTP status where the words are not ours', () => {
    expect(parseErrorBody(402, '{"error":{"code":"no_frames","message":"m"}}')).toEqual({
      code: 'no_frames',
      message: 'm',
    });
    expect(parseErrorBody(404, '{"error":"no such job"}')).toEqual({
      code: 'http_404',
      message: 'no such job (HTTP 404)',
    });
    expect(parseErrorBody(400, '{"message":"bad solution"}').message).toBe(
      'bad solution (HTTP 400)',
    );
    expect(parseErrorBody(422, '{"detail":"cannot decode"}').message).toBe(
      'cannot decode (HTTP 422)',
    );
    expect(parseErrorBody(422, '{"detail":[{"msg":"field required"}]}').message).toBe(
      'field required (HTTP 422)',
    );
    expect(parseErrorBody(502, '<html>Bad gateway</html>')).toEqual({
      code: 'http_502',
      message: '<html>Bad gateway</html> (HTTP 502)',
    });
    expect(parseErrorBody(503, '')).toEqual({
      code: 'http_503',
      message: 'The service answered HTTP 503.',
    });
  });
});
