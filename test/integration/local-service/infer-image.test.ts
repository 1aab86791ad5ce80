import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badImageUploads } from '../../support/bad-images.js';
import { TEST_KEY, startFixture, type Fixture } from '../../support/service-fixture.js';
import { jpeg, png } from '../../support/synth-media.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture({ limits: { maxImageBytes: 2 * 1024 * 1024 } });
});
afterAll(() => f.stop());

const remaining = async (token = TEST_KEY) =>
  (await f.call('/key', { token })).body.remaining as number;
const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

describe('POST /infer/image', () => {
  it('answers detections in both box forms, image facts, stats and credits, and charges the image cost', async () => {
    const before = await remaining();
    const { status, body } = await f.upload('/infer/image', {
      solution: 'objects',
      file: blob(await jpeg(1600, 900)),
      filename: 'a.jpg',
    });
    expect(status).toBe(200);
    expect(body.image).toEqual({
      width: 1600,
      height: 900,
      analysedWidth: 1024,
      analysedHeight: 576,
      format: 'jpeg',
    });
    expect(body.stats).toMatchObject({
      model: 'null-stand-in',
      inferenceMs: expect.any(Number),
      totalMs: expect.any(Number),
    });
    expect(body.detections.length).toBeGreaterThan(0);
    for (const d of body.detections) {
      expect(Object.keys(d).sort()).toEqual(['bbox', 'bboxPx', 'classId', 'label', 'score']);
      for (const v of Object.values(d.bbox) as number[]) expect(v).toBeGreaterThanOrEqual(0);
      expect(d.bbox.x + d.bbox.w).toBeLessThanOrEqual(1.000001);
      expect(d.bboxPx.w).toBeCloseTo(d.bbox.w * 1024, 0);
    }
    expect(body.credits).toEqual({
      spent: 4,
      remaining: before - 4,
      hourRemaining: expect.any(Number),
    });
    expect(await remaining()).toBe(before - 4);
  });

  it('charges each solution its own catalog cost', async () => {
    const { body: catalog } = await f.call('/catalog');
    for (const s of catalog.solutions) {
      const before = await remaining();
      const res = await f.upload('/infer/image', {
        solution: s.id,
        file: blob(await png()),
        filename: 'p.png',
      });
      expect(res.status).toBe(200);
      expect(await remaining()).toBe(before - s.frameCost.image);
    }
  });

  it('refuses an unknown or missing solution with 400 listing the valid ones', async () => {
    const file = blob(await png());
    const unknown = await f.upload('/infer/image', { solution: 'cats', file });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_solution');
    expect(unknown.body.error.message).toContain('objects, face, hand, body');
    const missing = await f.upload('/infer/image', { file });
    expect(missing.body.error.code).toBe('missing_solution');
    const noFile = await f.upload('/infer/image', { solution: 'face' });
    expect(noFile.body.error.code).toBe('missing_file');
    const notMultipart = await f.call('/infer/image', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(notMultipart.body.error.code).toBe('expected_multipart');
  });

  it('refuses every bad upload with a clean 4xx, spends nothing and stays healthy', async () => {
    const before = await remaining();
    for (const bad of await badImageUploads()) {
      const res = await f.upload('/infer/image', {
        solution: 'objects',
        file: blob(bad.bytes),
        filename: bad.filename,
      });
      expect({ name: bad.name, status: res.status }).toEqual({
        name: bad.name,
        status: bad.status,
      });
      expect(res.body.error.code).toMatch(/^[a-z_]+$/);
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
    expect(await remaining()).toBe(before);
    expect((await f.call('/healthz')).body.ai).toBe('ready');
  });

  it('refuses a file over the size limit with 413 before reading it whole, declared or streamed', async () => {
    const before = await remaining();
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const declared = await f.upload('/infer/image', {
      solution: 'objects',
      file: blob(big),
      filename: 'big.jpg',
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('file_too_large');
    // Without Content-Length the limit is enforced while the bytes stream in.
    const boundary = 'xxBOUNDARYxx';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="solution"\r\n\r\nobjects\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        for (let i = 0; i < 48; i++) controller.enqueue(new Uint8Array(64 * 1024));
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const res = await fetch(`${f.url}/infer/image`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('file_too_large');
    expect(await remaining()).toBe(before);
  });

  it('needs a valid bearer token', async () => {
    const res = await f.upload(
      '/infer/image',
      { solution: 'objects', file: blob(await png()) },
      'ldk_not_a_real_key_00',
    );
    expect(res.status).toBe(401);
  });
});

describe('credits and limits', () => {
  it('answers 402 when the token cannot pay, spending nothing', async () => {
    const g = await startFixture({ keys: [{ key: 'ldk_poor_key_12345678', frames: 5 }] });
    try {
      const file = new Blob([new Uint8Array(await png())]);
      expect(
        (await g.upload('/infer/image', { solution: 'objects', file }, 'ldk_poor_key_12345678'))
          .status,
      ).toBe(200);
      const res = await g.upload(
        '/infer/image',
        { solution: 'objects', file },
        'ldk_poor_key_12345678',
      );
      expect(res.status).toBe(402);
      expect(res.body.error.code).toBe('insufficient_frames');
      expect((await g.call('/key', { token: 'ldk_poor_key_12345678' })).body.remaining).toBe(1);
    } finally {
      await g.stop();
    }
  });

  it('answers 429 with Retry-After when the hour is used up', async () => {
    const g = await startFixture({ hourFrames: 6 });
    try {
      const file = new Blob([new Uint8Array(await png())]);
      expect((await g.upload('/infer/image', { solution: 'objects', file })).status).toBe(200);
      const res = await g.upload('/infer/image', { solution: 'objects', file });
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('hourly_frames_exhausted');
      const retry = Number(res.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(3600);
      expect((await g.call('/key')).body.hourRemaining).toBe(2);
    } finally {
      await g.stop();
    }
  });

  it('answers 429 past the published concurrency and never overdraws under load', async () => {
    const g = await startFixture({
      latencyMs: 300,
      keys: [{ key: 'ldk_busy_key_12345678', frames: 10 }],
    });
    try {
      const file = new Blob([new Uint8Array(await png())]);
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          g.upload('/infer/image', { solution: 'face', file }, 'ldk_busy_key_12345678'),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(
        g.service.config.limits.maxConcurrentRequests,
      );
      const refused = results.filter((r) => r.status === 429);
      expect(refused.length).toBe(2);
      expect(refused[0]!.body.error.code).toBe('too_many_concurrent_requests');
      expect(refused[0]!.headers.get('retry-after')).toBe('1');
      // 10 frames, cost 3 each at full concurrency: three succeed, never a fourth.
      const body = await Promise.all(
        Array.from({ length: 4 }, () =>
          g.upload('/infer/image', { solution: 'body', file }, 'ldk_busy_key_12345678'),
        ),
      );
      expect(body.filter((r) => r.status === 200)).toHaveLength(2);
      expect(body.filter((r) => r.status === 402)).toHaveLength(2);
      expect((await g.call('/key', { token: 'ldk_busy_key_12345678' })).body.remaining).toBe(0);
    } finally {
      await g.stop();
    }
  });
});
