/**
 * Lost answers and odd answers through the fault proxy: a POST sent in full is never resent (it
 * may have been charged), one cut off mid-upload is; failed jobs, odd poll hints and malformed
 * catalogs come out as values or as errors naming the field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clampPollInterval } from '../../../../electron/core/service/poll-interval.js';
import {
  NetworkError,
  UncertainOutcomeError,
} from '../../../../electron/core/service/service-errors.js';
import {
  rejectionOf,
  startHarness,
  type Harness,
} from '../../../support/service-client-harness.js';
import { clip, jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

const MiB = 1024 * 1024;
let h: Harness;
let media: { dir: string; remove: () => Promise<void> };
let mp4: string;
beforeAll(async () => {
  media = await tempDir('labeldesk-faults-');
  mp4 = await clip(media.dir, 'clip.mp4', 2);
  h = await startHarness({ maxImageBytes: 64 * MiB, maxVideoSeconds: 10 });
});
afterAll(async () => {
  await h.stop();
  await media.remove();
});
beforeEach(() => {
  h.retries.length = 0;
});

const image = '/infer/image';

describe('lost answers to uploads', () => {
  it('raises UncertainOutcomeError when the upload arrived but never reached the service', async () => {
    const before = await h.remaining();
    const seen = h.seen('POST', image);
    h.proxy.inject('POST', image, { kind: 'drop-after-upload', forward: false });
    const file = await jpeg();
    const err = await rejectionOf(h.client().inferImage({ solution: 'objects', file }));
    expect(err).toBeInstanceOf(UncertainOutcomeError);
    expect(err).toMatchObject({ code: 'uncertain_outcome', reason: 'network' });
    expect((err as UncertainOutcomeError).bytesSent).toBeGreaterThan(file.length);
    expect(h.seen('POST', image) - seen).toBe(1);
    expect(h.proxy.requests.at(-1)).toMatchObject({ forwarded: false });
    expect(h.retries).toEqual([]);
    expect(await h.remaining()).toBe(before);
  });

  it('raises UncertainOutcomeError when the service answered but the answer was dropped', async () => {
    const before = await h.remaining();
    const forwarded = h.proxy.forwarded('POST', image);
    h.proxy.inject('POST', image, { kind: 'drop-after-upload', forward: true });
    const err = await rejectionOf(
      h.client().inferImage({ solution: 'objects', file: await jpeg() }),
    );
    expect(err).toBeInstanceOf(UncertainOutcomeError);
    // Exactly one request reached the service, and it was charged: a resend would pay twice.
    expect(h.proxy.forwarded('POST', image) - forwarded).toBe(1);
    expect(await h.remaining()).toBe(before - 4);
  });

  it('does the same for a clip whose 202 was lost (a job exists that we cannot name)', async () => {
    const forwarded = h.proxy.forwarded('POST', '/infer/video');
    h.proxy.inject('POST', '/infer/video', { kind: 'drop-after-upload', forward: true });
    const err = await rejectionOf(h.client().submitVideo({ solution: 'objects', file: mp4 }));
    expect(err).toBeInstanceOf(UncertainOutcomeError);
    expect(h.proxy.forwarded('POST', '/infer/video') - forwarded).toBe(1);
    expect(h.seen('POST', '/infer/video')).toBe(1);
  });

  it('raises UncertainOutcomeError on a timeout after the upload, and on an abort after it', async () => {
    h.proxy.inject('POST', image, { kind: 'hang' }, 2);
    const seen = h.seen('POST', image);
    const timedOut = await rejectionOf(
      h.client({ timeoutMs: 300 }).inferImage({ solution: 'objects', file: await jpeg() }),
    );
    expect(timedOut).toMatchObject({ code: 'uncertain_outcome', reason: 'timeout' });
    const aborted = await rejectionOf(
      h.client().inferImage({
        solution: 'objects',
        file: await jpeg(),
        signal: AbortSignal.timeout(300),
      }),
    );
    expect(aborted).toMatchObject({ code: 'uncertain_outcome', reason: 'aborted' });
    expect(h.seen('POST', image) - seen).toBe(2);
  });

  it('resends an upload cut off before it was complete, and is charged once', async () => {
    // Far more than the loopback socket buffers hold, so the drop happens mid-body for sure.
    const file = Buffer.concat([await jpeg(320, 240, 2), Buffer.alloc(32 * MiB)]);
    const before = await h.remaining();
    const seen = h.seen('POST', image);
    h.proxy.inject('POST', image, { kind: 'drop-before-upload', afterBytes: 64 * 1024 });
    const result = await h.client().inferImage({ solution: 'objects', file, filename: 'big.jpg' });
    expect(result.image).toMatchObject({ width: 320, height: 240 });
    const attempts = h.proxy.requests.filter((r) => r.path === image).slice(seen);
    expect(attempts.map((r) => [r.fault ?? 'none', r.forwarded])).toEqual([
      ['drop-before-upload', false],
      ['none', true],
    ]);
    expect(attempts[0]!.bodyBytes).toBeLessThan(file.length);
    expect(h.retries).toHaveLength(1);
    expect(h.retries[0]!.error).toBeInstanceOf(NetworkError);
    expect(await h.remaining()).toBe(before - 4);
  });

  it('gives the caller its abort reason when aborted before anything was sent', async () => {
    const reason = new Error('user cancelled');
    const controller = new AbortController();
    controller.abort(reason);
    const err = await rejectionOf(
      h.client().inferImage({ solution: 'objects', file: await jpeg(), signal: controller.signal }),
    );
    expect(err).toBe(reason);
  });
});

describe('odd answers', () => {
  let jobId: string;
  let bounds: { min: number; max: number };
  beforeAll(async () => {
    const client = h.client();
    bounds = (await client.catalog()).limits.pollIntervalMs;
    jobId = (await client.submitVideo({ solution: 'objects', file: mp4 })).jobId;
  });
  const jobPath = () => `/jobs/${jobId}`;

  it('returns a failed job (200 with error) as a value', async () => {
    h.proxy.inject('GET', jobPath(), {
      kind: 'rewrite',
      // A failed job without a result (a result beside an error is kept: issue 23).
      rewrite: ({ result: _result, ...job }) => ({
        ...job,
        status: 'failed',
        error: { code: 'engine_failed', message: 'The detector crashed.' },
      }),
    });
    const job = await h.client().job(jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({ code: 'engine_failed', message: 'The detector crashed.' });
  });

  it('clamps pollIntervalMs of 0, huge, or missing', async () => {
    const hints: [(job: any) => unknown, number][] = [
      [(job) => ({ ...job, pollIntervalMs: 0 }), bounds.min],
      [(job) => ({ ...job, pollIntervalMs: 86_400_000 }), bounds.max],
      [(job) => ({ ...job, pollIntervalMs: undefined }), bounds.min],
      [
        (job) => JSON.stringify(job).replace(/"pollIntervalMs":\d+/, '"pollIntervalMs":1e999'),
        bounds.max,
      ],
    ];
    for (const [rewrite, expected] of hints) {
      h.proxy.inject('GET', jobPath(), { kind: 'rewrite', rewrite });
      const job = await h.client().job(jobId);
      expect(clampPollInterval(job.pollIntervalMs, bounds)).toBe(expected);
    }
  });

  it('falls back, with a note, on a limit it cannot read, and does not retry the catalog', async () => {
    const seen = h.seen('GET', '/catalog');
    h.proxy.inject('GET', '/catalog', {
      kind: 'rewrite',
      rewrite: (c) => ({
        ...c,
        limits: { ...c.limits, pollIntervalMs: { min: '250ms', max: 5000 } },
      }),
    });
    const catalog = await h.client().catalog();
    expect(catalog.limits.pollIntervalMs).toEqual({ min: 1000, max: 10_000 });
    expect(catalog.limits.notPublished).toEqual([
      { name: 'pollIntervalMs', using: '1,000 to 10,000 ms between polls' },
    ]);
    expect(h.seen('GET', '/catalog') - seen).toBe(1);
  });

  it('reads a job without a status as still running, and names a body that is not JSON', async () => {
    h.proxy.inject('GET', jobPath(), {
      kind: 'rewrite',
      rewrite: ({ status: _s, result: _r, ...job }) => job,
    });
    expect((await h.client().job(jobId)).status).toBe('running');
    h.proxy.inject('GET', '/healthz', { kind: 'rewrite', rewrite: () => 'OK' });
    expect(((await rejectionOf(h.client().health())) as Error).message).toBe(
      'health: expected a JSON body, got "OK"',
    );
  });
});
