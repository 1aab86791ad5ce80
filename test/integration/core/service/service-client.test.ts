/** Every endpoint through ServiceClient against the real embedded service: typed values, coded errors. */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampPollInterval } from '../../../../electron/core/service/poll-interval.js';
import { isFinished, type Catalog } from '../../../../electron/core/service/service-adapter.js';
import { ServiceClient } from '../../../../electron/core/service/service-client.js';
import { ServiceError } from '../../../../electron/core/service/service-errors.js';
import { TEST_KEY, startFixture, type Fixture } from '../../../support/service-fixture.js';
import { clip, jpeg } from '../../../support/synth-media.js';
import { tempDir } from '../../../support/temp-dir.js';

const POOR_KEY = 'ldk_poor_key_0123456789';
let f: Fixture;
let media: { dir: string; remove: () => Promise<void> };
let client: ServiceClient;
let catalog: Catalog;
let mp4: string;

beforeAll(async () => {
  media = await tempDir('labeldesk-client-');
  mp4 = await clip(media.dir, 'clip.mp4', 2);
  f = await startFixture({
    latencyMs: 2,
    keys: [
      { key: TEST_KEY, frames: 100_000 },
      { key: POOR_KEY, frames: 1 },
    ],
    limits: { maxImageBytes: 1024 * 1024, maxVideoSeconds: 10 },
  });
  client = new ServiceClient({ baseUrl: `${f.url}/`, apiKey: TEST_KEY, retry: { maxAttempts: 1 } });
  catalog = await client.catalog();
});
afterAll(async () => {
  await f.stop();
  await media.remove();
});

async function refusal(call: Promise<unknown>): Promise<ServiceError> {
  const err = await call.then(
    () => new Error('expected a ServiceError'),
    (e: unknown) => e,
  );
  if (!(err instanceof ServiceError)) throw err;
  return err;
}

describe('ServiceClient against the embedded service', () => {
  it('reads the catalog, health and SDK sources', async () => {
    const objects = catalog.solutions.find((s) => s.id === 'objects')!;
    expect(objects.frameCost).toEqual({ image: 4, videoFrame: 2 });
    expect(objects.media).toContain('video');
    expect(catalog.limits).toMatchObject({ maxImageBytes: 1024 * 1024, maxVideoSeconds: 10 });
    expect(catalog.limits.pollIntervalMs.min).toBeLessThanOrEqual(
      catalog.limits.pollIntervalMs.max,
    );
    expect(catalog.sdk.map((s) => s.lang)).toContain('ts');

    const health = await client.health();
    expect(health).toMatchObject({ status: 'ok', enabled: true, ai: 'ready' });

    const ts = await client.sdk('ts');
    expect(ts.filename).toBe('labeldesk.ts');
    expect(ts.source).toContain('export class');
    const unknown = await refusal(client.sdk('cobol'));
    expect([unknown.status, unknown.code]).toEqual([404, 'unknown_sdk_language']);
  });

  it('mints a session, reads key status and exchanges it for a trial key', async () => {
    const session = await client.session(randomUUID());
    expect(session.token).toMatch(/^lds_/);
    expect(session.credits).toBeGreaterThan(0);
    const asSession = client.withApiKey(session.token);
    expect((await asSession.keyStatus()).audience).toBe('session');
    const trial = await asSession.sdkKey();
    expect(trial.key).toMatch(/^ldt_/);
    expect(trial.frames).toBeGreaterThan(0);

    expect(await client.keyStatus()).toMatchObject({ audience: 'api_key', expiresAt: null });
    const notSession = await refusal(client.sdkKey());
    expect([notSession.status, notSession.code]).toEqual([403, 'session_token_required']);
    const badId = await refusal(client.session('not-a-uuid'));
    expect([badId.status, badId.code]).toEqual([400, 'invalid_device_id']);
    const unknown = await refusal(client.withApiKey('ldk_nobody_000000000').keyStatus());
    expect(unknown.status).toBe(401);
    const anonymous = await refusal(client.withApiKey(undefined).keyStatus());
    expect(anonymous.status).toBe(401);
  });

  it('runs an image from memory and from disk', async () => {
    const bytes = await jpeg(320, 240, 1);
    const before = (await client.keyStatus()).remaining;
    const result = await client.inferImage({ solution: 'objects', file: bytes });
    expect(result.image).toMatchObject({ width: 320, height: 240, format: 'jpeg' });
    expect(result.credits!.spent).toBe(4);
    expect(result.credits!.remaining).toBe(before - 4);
    for (const d of result.detections) {
      expect(d.bbox.x).toBeGreaterThanOrEqual(0);
      expect(d.bbox.x + d.bbox.w).toBeLessThanOrEqual(1.000001);
    }
    const path = join(media.dir, 'photo.jpg');
    await writeFile(path, bytes);
    const fromDisk = await client.inferImage({ solution: 'objects', file: path });
    expect(fromDisk.detections).toEqual(result.detections);
  });

  it('carries the service error codes: 402, 404, 413, 415, 422', async () => {
    const small = await jpeg(64, 64);
    const poor = await refusal(
      client.withApiKey(POOR_KEY).inferImage({ solution: 'objects', file: small }),
    );
    expect(poor.status).toBe(402);
    const cases: [Buffer, number][] = [
      [Buffer.alloc(2 * 1024 * 1024, 1), 413],
      [Buffer.from('just some notes, not a picture\n'.repeat(20)), 415],
      [randomBytes(4096), 422],
    ];
    for (const [file, status] of cases) {
      const err = await refusal(client.inferImage({ solution: 'objects', file }));
      expect(err.status).toBe(status);
      expect(err.code).toMatch(/^[a-z_]+$/);
      expect(err.message).not.toBe('');
    }
    const badSolution = await refusal(client.inferImage({ solution: 'nope', file: small }));
    expect(badSolution.status).toBe(400);
    const noJob = await refusal(client.job(randomUUID()));
    expect([noJob.status, noJob.code]).toEqual([404, 'job_not_found']);
  });

  it('submits a clip, polls it to the end, and cancels', async () => {
    const sub = await client.submitVideo({ solution: 'objects', file: mp4 });
    expect(sub.status).toBe('queued');
    expect(sub.pollUrl).toBe(`/jobs/${sub.jobId}`);
    expect(sub.credits!.reserved).toBe(20);
    let job = await client.job(sub.jobId);
    while (!isFinished(job.status)) {
      await new Promise((r) =>
        setTimeout(r, clampPollInterval(job.pollIntervalMs, { min: 20, max: 200 })),
      );
      job = await client.job(sub.jobId);
    }
    expect(job.status).toBe('succeeded');
    expect(job.progress).toBe(1);
    expect(job.result).toMatchObject({ width: 320, height: 240, sampledFps: 5 });
    expect(job.result!.frames).toHaveLength(10);
    // After DELETE any answer counts as cancelled; the service's own word is kept beside it.
    expect(await client.cancelJob(sub.jobId)).toEqual({
      jobId: sub.jobId,
      status: 'cancelled',
      serviceStatus: 'succeeded',
    });

    const other = await client.submitVideo({ solution: 'objects', file: mp4 });
    const ack = await client.cancelJob(other.jobId);
    expect(['cancelled', 'succeeded']).toContain(ack.serviceStatus);
    expect((await client.job(other.jobId)).status).toBe(ack.serviceStatus);
    const stranger = await refusal(client.withApiKey(POOR_KEY).job(other.jobId));
    expect(stranger.status).toBe(404);
  });
});
