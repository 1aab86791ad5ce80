import { describe, expect, it } from 'vitest';
import {
  parseCatalog,
  parseErrorBody,
  parseImageResult,
  parseJob,
  parseJsonText,
  parseVideoSubmission,
} from '../../../../electron/core/service/service-adapter.js';
import { ServiceShapeError } from '../../../../electron/core/service/service-errors.js';

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

const shapeError = (fn: () => unknown): ServiceShapeError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ServiceShapeError) return err;
    throw err;
  }
  throw new Error('expected a ServiceShapeError');
};

describe('service adapter', () => {
  it('parses a catalog into typed values and tolerates extra fields', () => {
    const raw: any = catalog();
    raw.newTopLevel = { anything: true };
    raw.limits.somethingNew = 3;
    raw.solutions[0].media.push('audio');
    const parsed = parseCatalog(raw);
    expect(parsed.limits.pollIntervalMs).toEqual({ min: 250, max: 5000 });
    expect(parsed.solutions[0]!.media).toEqual(['image', 'video']);
    expect(parsed.solutions[0]!.frameCost.videoFrame).toBe(2);
  });

  it('names the field path of a malformed catalog', () => {
    const raw: any = catalog();
    raw.limits.pollIntervalMs.min = 'fast';
    // A missing cost is unknown (learnt later); a cost of the wrong type is still named.
    raw.solutions[0].frameCost.image = 'four';
    const err = shapeError(() => parseCatalog(raw));
    expect(err.code).toBe('unexpected_shape');
    expect(err.message).toContain('catalog.limits.pollIntervalMs.min: expected number');
    expect(err.message).toContain('catalog.solutions[0].frameCost.image: expected number');
    expect(err.problems).toHaveLength(2);
  });

  it('rejects an unknown job status by name instead of guessing', () => {
    const err = shapeError(() => parseJob({ status: 'paused', progress: 0.5 }));
    expect(err.message).toMatch(/^job\.status: /);
  });

  it('accepts any numeric poll hint but names a non-numeric one', () => {
    expect(
      parseJob({ status: 'running', progress: 0.1, pollIntervalMs: JSON.parse('1e999') })
        .pollIntervalMs,
    ).toBe(Infinity);
    expect(
      shapeError(() => parseJob({ status: 'running', progress: 0, pollIntervalMs: 'soon' }))
        .message,
    ).toBe('job.pollIntervalMs: expected number');
  });

  it('reads a failed job as a value with its error', () => {
    const job = parseJob({
      jobId: 'j1',
      status: 'failed',
      progress: 0.2,
      queuePosition: 0,
      pollIntervalMs: null,
      error: { code: 'engine_failed', message: 'boom' },
    });
    expect(job.error).toEqual({ code: 'engine_failed', message: 'boom' });
    expect(job.pollIntervalMs).toBeUndefined();
  });

  it('checks detections inside an image result and in video frames', () => {
    const detection = {
      label: 'person',
      classId: 0,
      score: 0.9,
      bbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      bboxPx: { x: 10, y: 10, w: 20, h: 20 },
    };
    const result = {
      detections: [detection, { ...detection, bbox: { x: 0, y: 0, w: 1 } }],
      image: { width: 100, height: 100, analysedWidth: 100, analysedHeight: 100, format: 'jpeg' },
      stats: { model: 'm', inferenceMs: 1, totalMs: 2 },
      credits: { spent: 4, remaining: 10, hourRemaining: 10 },
    };
    expect(shapeError(() => parseImageResult(result)).message).toContain(
      'imageResult.detections[1].bbox.h: expected number, received undefined',
    );
    const job = parseJob({
      status: 'succeeded',
      progress: 1,
      result: {
        fps: 10,
        sampledFps: 5,
        durationMs: 1000,
        width: 320,
        height: 240,
        analysedWidth: 320,
        analysedHeight: 240,
        frames: [{ index: 0, timeMs: 0, detections: [detection] }],
      },
    });
    expect(job.result?.frames[0]?.detections[0]?.label).toBe('person');
  });

  it('accepts a video submission without pollIntervalMs (clamped later)', () => {
    const sub = parseVideoSubmission({
      jobId: 'j',
      status: 'queued',
      queuePosition: 1,
      pollUrl: '/jobs/j',
      credits: { spent: 0, remaining: 5, hourRemaining: 5, reserved: 40 },
    });
    expect(sub.pollIntervalMs).toBeUndefined();
    expect(sub.credits?.reserved).toBe(40);
  });

  it('reads error bodies, and falls back to the status for foreign ones', () => {
    expect(parseErrorBody(402, '{"error":{"code":"insufficient_frames","message":"m"}}')).toEqual({
      code: 'insufficient_frames',
      message: 'm',
    });
    expect(parseErrorBody(502, '<html>Bad gateway</html>')).toEqual({
      code: 'http_502',
      message: '<html>Bad gateway</html>',
    });
  });

  it('treats a non-JSON success body as a shape error', () => {
    expect(shapeError(() => parseJsonText('catalog', '<html>')).message).toMatch(
      /^catalog: expected a JSON body/,
    );
  });
});
