import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../../electron/core/runner/classify-error.js';
import {
  NetworkError,
  ServiceError,
  ServiceShapeError,
  UncertainOutcomeError,
  UploadSourceError,
} from '../../../../electron/core/service/service-errors.js';

const live = new AbortController().signal;
const aborted = AbortSignal.abort(new Error('stop'));
const sysError = (code: string) => Object.assign(new Error(code), { code });

describe('classifyError', () => {
  it('a lost answer to a complete upload is uncertain, even when the run was stopped', () => {
    const err = new UncertainOutcomeError('network', 'POST /infer/image', 1234);
    expect(classifyError(err, live)).toMatchObject({ kind: 'uncertain', code: 'answer_lost' });
    const stopped = new UncertainOutcomeError('aborted', 'POST /infer/image', 1234);
    expect(classifyError(stopped, aborted)).toMatchObject({ kind: 'uncertain' });
  });

  it('anything else after the run was stopped is a cancellation that cost nothing', () => {
    expect(classifyError(new NetworkError('network', 'x'), aborted)).toEqual({
      kind: 'cancelled',
      framesSpent: 0,
    });
  });

  it('402 means the key ran out', () => {
    const err = new ServiceError(402, 'insufficient_frames', 'no frames');
    expect(classifyError(err, live)).toEqual({ kind: 'no-credits', reason: 'key' });
  });

  it("429 for the hour's frames is no-credits for the hour, with its Retry-After", () => {
    const err = new ServiceError(429, 'hourly_frames_exhausted', 'later', 120);
    expect(classifyError(err, live)).toEqual({
      kind: 'no-credits',
      reason: 'hour',
      retryAfterMs: 120_000,
    });
    const bare = new ServiceError(429, 'hourly_frames_exhausted', 'later');
    expect(classifyError(bare, live)).toEqual({ kind: 'no-credits', reason: 'hour' });
  });

  it('any other 429 is a busy service: wait Retry-After (1 s when not said) and send again', () => {
    expect(classifyError(new ServiceError(429, 'queue_full', 'busy', 3), live)).toEqual({
      kind: 'busy',
      retryAfterMs: 3000,
    });
    expect(classifyError(new ServiceError(429, 'too_many', 'busy'), live)).toEqual({
      kind: 'busy',
      retryAfterMs: 1000,
    });
  });

  it('a 503 asking for longer than a request holds is a wait with its words, not a failure', () => {
    expect(classifyError(new ServiceError(503, 'warming', 'Warming up.', 600), live)).toEqual({
      kind: 'busy',
      retryAfterMs: 600_000,
      said: 'Warming up.',
    });
    expect(classifyError(new ServiceError(503, 'down', 'Down.', 30), live).kind).toBe('failed');
  });

  it("other service errors fail the file with the service's code and words, nothing spent", () => {
    const err = new ServiceError(415, 'unsupported_media_type', 'Not an image.');
    expect(classifyError(err, live)).toEqual({
      kind: 'failed',
      framesSpent: 0,
      code: 'unsupported_media_type',
      message: 'Not an image.',
    });
    expect(classifyError(new ServiceError(503, 'not_ready', 'loading'), live)).toMatchObject({
      kind: 'failed',
      code: 'not_ready',
    });
  });

  it('client-side failures keep their codes', () => {
    expect(classifyError(new NetworkError('timeout', 'slow'), live)).toMatchObject({
      kind: 'failed',
      code: 'timeout',
    });
    expect(classifyError(new NetworkError('network', 'refused'), live)).toMatchObject({
      kind: 'failed',
      code: 'network_error',
    });
    expect(classifyError(new UploadSourceError('shrank'), live)).toMatchObject({
      kind: 'failed',
      code: 'upload_source_failed',
    });
    expect(
      classifyError(new ServiceShapeError('imageResult', ['imageResult.credits: missing']), live),
    ).toMatchObject({ kind: 'failed', code: 'unexpected_shape', message: /imageResult.credits/ });
  });

  it('file system errors name what happened to the file', () => {
    expect(classifyError(sysError('ENOENT'), live)).toMatchObject({ code: 'file_vanished' });
    expect(classifyError(sysError('EACCES'), live)).toMatchObject({ code: 'file_unreadable' });
    expect(classifyError(sysError('EPERM'), live)).toMatchObject({ code: 'file_unreadable' });
  });

  it('anything unexpected is an internal error with its message', () => {
    expect(classifyError(new Error('boom'), live)).toEqual({
      kind: 'failed',
      framesSpent: 0,
      code: 'internal_error',
      message: 'boom',
    });
    expect(classifyError('odd', live)).toMatchObject({ code: 'internal_error', message: 'odd' });
  });
});
