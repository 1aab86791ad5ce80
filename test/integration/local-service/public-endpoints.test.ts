import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../support/service-fixture.js';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.stop());

describe('GET /catalog', () => {
  it('publishes version, limits, clients and at least four solutions with distinct frame costs', async () => {
    const { status, body } = await f.call('/catalog', { token: null });
    expect(status).toBe(200);
    expect(body.version).toMatch(/^\d+\.\d+\.\d+\+\S+$/);
    expect(body.aiStatus).toBe('ready');
    expect(body.limits).toMatchObject({
      maxImageBytes: expect.any(Number),
      maxVideoBytes: expect.any(Number),
      maxVideoSeconds: expect.any(Number),
      maxConcurrentRequests: expect.any(Number),
      maxConcurrentJobs: expect.any(Number),
      maxQueuedJobs: expect.any(Number),
      hourFrames: expect.any(Number),
      sessionFrames: expect.any(Number),
      trialKeyFrames: expect.any(Number),
      videoSampleFps: expect.any(Number),
      pollIntervalMs: { min: expect.any(Number), max: expect.any(Number) },
    });
    expect(body.limits.imageFormats).toEqual(expect.arrayContaining(['jpeg', 'png', 'webp']));
    expect(body.limits.videoFormats).toEqual(['mp4', 'webm', 'mov', 'avi', 'mkv']);
    const ids = body.solutions.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['objects', 'face', 'hand', 'body']));
    const objects = body.solutions.find((s: { id: string }) => s.id === 'objects');
    expect(objects.classes).toHaveLength(80);
    expect(objects.media).toEqual(['image', 'video']);
    const costs = new Set(
      body.solutions.map((s: { frameCost: { image: number } }) => s.frameCost.image),
    );
    expect(costs.size).toBeGreaterThan(1);
    expect(body.sdk.map((s: { lang: string }) => s.lang)).toEqual([
      'curl',
      'python',
      'node',
      'ts',
      'browser',
    ]);
  });
});

describe('GET /healthz', () => {
  it('reports liveness, the engine and each solution', async () => {
    const { status, body } = await f.call('/healthz', { token: null });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', enabled: true, ai: 'ready' });
    // The fixture runs the stand-in engine: it must say so, here and in the catalog.
    expect(body.engine).toBe('null-stand-in');
    expect((await f.call('/catalog')).body.engine).toBe('null-stand-in');
    expect(body.uptimeSec).toBeGreaterThanOrEqual(0);
    expect(body.solutions).toEqual({
      objects: 'ready',
      face: 'ready',
      hand: 'ready',
      body: 'ready',
    });
  });
});

describe('GET /sdk/{lang}', () => {
  it('serves each client stamped with the running version', async () => {
    const { body: catalog } = await f.call('/catalog');
    for (const lang of ['curl', 'python', 'node', 'ts', 'browser']) {
      const res = await fetch(`${f.url}/sdk/${lang}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(catalog.version);
      expect(text).not.toContain('__LABELDESK_VERSION__');
    }
  });

  it('answers 404 listing the languages for an unknown one', async () => {
    const { status, body } = await f.call('/sdk/cobol', { token: null });
    expect(status).toBe(404);
    expect(body.error.code).toBe('unknown_sdk_language');
    expect(body.error.message).toContain('curl, python, node, ts, browser');
  });
});

describe('HTTP conventions', () => {
  it('answers unknown paths and methods with an error body', async () => {
    expect((await f.call('/nope')).body.error.code).toBe('not_found');
    const res = await f.call('/catalog', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('sends CORS headers and answers preflights', async () => {
    const pre = await fetch(`${f.url}/infer/image`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization');
    const res = await fetch(`${f.url}/catalog`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
