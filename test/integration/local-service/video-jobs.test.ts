import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../../support/poll-job.js';
import { TEST_KEY, startFixture, type Fixture } from '../../support/service-fixture.js';
import { clip } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

let f: Fixture;
let media: { dir: string; remove: () => Promise<void> };
let mp4: string;
beforeAll(async () => {
  media = await tempDir('labeldesk-clips-');
  mp4 = await clip(media.dir, 'clip.mp4', 4);
  f = await startFixture({ latencyMs: 2, limits: { maxVideoSeconds: 10 } });
});
afterAll(async () => {
  await f.stop();
  await media.remove();
});

const remaining = async (token = TEST_KEY) =>
  (await f.call('/key', { token })).body.remaining as number;
const submit = async (file: string, solution = 'objects', token = TEST_KEY) =>
  f.upload(
    '/infer/video',
    {
      solution,
      file: new Blob([new Uint8Array(await readFile(file))]),
      filename: file.split('/').pop()!,
    },
    token,
  );

describe('POST /infer/video and GET /jobs/{id}', () => {
  it('queues a job (202), reserves its frames, and settles them when it succeeds', async () => {
    const before = await remaining();
    const res = await submit(mp4);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'queued',
      queuePosition: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    expect(res.body.pollUrl).toBe(`/jobs/${res.body.jobId}`);
    // 4 s at 5 fps = 20 frames at 2 frames each, reserved at once.
    expect(res.body.credits).toMatchObject({ reserved: 40, remaining: before - 40 });
    const job = await pollJob(f, res.body.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.progress).toBe(1);
    const r = job.result;
    expect(r).toMatchObject({
      fps: 10,
      sampledFps: 5,
      width: 320,
      height: 240,
      analysedWidth: 320,
      analysedHeight: 240,
    });
    expect(r.durationMs).toBeCloseTo(4000, -2);
    expect(r.frames.length).toBe(20);
    expect(r.frames.map((x: { index: number }) => x.index)).toEqual([...Array(20).keys()]);
    expect(r.frames[1].timeMs).toBeCloseTo(200, -1);
    expect(r.frames[0].detections[0]).toMatchObject({
      label: expect.any(String),
      bbox: expect.any(Object),
      bboxPx: expect.any(Object),
    });
    expect(await remaining()).toBe(before - r.frames.length * 2);
    expect(await readdir(join(f.dataDir, 'uploads'))).toEqual([]);
  });

  it('accepts the five containers', async () => {
    for (const ext of ['webm', 'mov', 'avi', 'mkv']) {
      const file = await clip(media.dir, `c.${ext}`, 1);
      const res = await submit(file, 'face');
      expect({ ext, status: res.status }).toEqual({ ext, status: 202 });
      expect((await pollJob(f, res.body.jobId)).status).toBe('succeeded');
    }
  });

  it('refuses bad clips cleanly without spending', async () => {
    const before = await remaining();
    const text = join(media.dir, 'notes.mp4');
    await writeFile(text, 'not a video at all');
    const bad = await submit(text);
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('undecodable_media');
    const long = await clip(media.dir, 'long.mp4', 12, '160x120', 5);
    const tooLong = await submit(long);
    expect(tooLong.status).toBe(413);
    expect(tooLong.body.error.code).toBe('video_too_long');
    const unknown = await submit(mp4, 'nope');
    expect(unknown.body.error.code).toBe('unknown_solution');
    expect(await remaining()).toBe(before);
    expect(await readdir(join(f.dataDir, 'uploads'))).toEqual([]);
  });

  it('shows a job only to the token that created it', async () => {
    const res = await submit(mp4, 'face');
    const other = await f.call('/session', {
      method: 'POST',
      token: null,
      body: JSON.stringify({ deviceId: crypto.randomUUID() }),
    });
    const stranger = await f.call(`/jobs/${res.body.jobId}`, { token: other.body.token });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('job_not_found');
    expect(
      (await f.call(`/jobs/${res.body.jobId}`, { method: 'DELETE', token: other.body.token }))
        .status,
    ).toBe(404);
    expect((await f.call('/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    await pollJob(f, res.body.jobId);
  });
});

describe('DELETE /jobs/{id}', () => {
  it('cancels a running job promptly and refunds the frames not analysed', async () => {
    const g = await startFixture({ latencyMs: 200 });
    try {
      const before = (await g.call('/key')).body.remaining;
      const file = new Blob([new Uint8Array(await readFile(mp4))]);
      const res = await g.upload('/infer/video', {
        solution: 'objects',
        file,
        filename: 'clip.mp4',
      });
      await pollJob(g, res.body.jobId, { until: (j) => j.framesAnalysed >= 2 });
      const t0 = performance.now();
      const del = await g.call(`/jobs/${res.body.jobId}`, { method: 'DELETE' });
      // Generous: the proof that the job stopped is the frame count below.
      expect(performance.now() - t0).toBeLessThan(5000);
      expect(del.body).toEqual({ jobId: res.body.jobId, status: 'cancelled' });
      const job = (await g.call(`/jobs/${res.body.jobId}`)).body;
      expect(job.status).toBe('cancelled');
      const analysed = job.framesAnalysed;
      expect(analysed).toBeLessThan(20);
      expect((await g.call('/key')).body.remaining).toBe(before - analysed * 2);
      // Deleting a finished job is not an error.
      expect((await g.call(`/jobs/${res.body.jobId}`, { method: 'DELETE' })).body.status).toBe(
        'cancelled',
      );
    } finally {
      await g.stop();
    }
  });

  it('cancels queued jobs with a full refund, and refuses past the queue bound with 429', async () => {
    const g = await startFixture({
      latencyMs: 500,
      limits: { maxConcurrentJobs: 1, maxQueuedJobs: 2 },
    });
    try {
      const before = (await g.call('/key')).body.remaining;
      const file = new Blob([new Uint8Array(await readFile(mp4))]);
      const up = () =>
        g.upload('/infer/video', { solution: 'objects', file, filename: 'clip.mp4' });
      const a = await up();
      await pollJob(g, a.body.jobId, { until: (j) => j.status === 'running' });
      const b = await up();
      const c = await up();
      expect(b.body.queuePosition).toBe(1);
      expect(c.body.queuePosition).toBe(2);
      expect(c.body.pollIntervalMs).toBeGreaterThan(a.body.pollIntervalMs);
      const d = await up();
      expect(d.status).toBe(429);
      expect(d.body.error.code).toBe('queue_full');
      expect(Number(d.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const j of [c, b, a]) await g.call(`/jobs/${j.body.jobId}`, { method: 'DELETE' });
      const analysed = (await g.call(`/jobs/${a.body.jobId}`)).body.framesAnalysed as number;
      expect((await g.call('/key')).body.remaining).toBe(before - analysed * 2);
    } finally {
      await g.stop();
    }
  });
});

describe('restart', () => {
  it('resumes a job that was running when the service stopped, without charging twice', async () => {
    const dir = await tempDir('labeldesk-restart-');
    try {
      let g = await startFixture({ latencyMs: 100 }, dir.dir);
      const before = (await g.call('/key')).body.remaining;
      const file = new Blob([new Uint8Array(await readFile(mp4))]);
      const res = await g.upload('/infer/video', {
        solution: 'objects',
        file,
        filename: 'clip.mp4',
      });
      await pollJob(g, res.body.jobId, { until: (j) => j.framesAnalysed >= 3 });
      await g.service.close();
      g = await startFixture({ latencyMs: 1 }, dir.dir);
      const mid = (await g.call(`/jobs/${res.body.jobId}`)).body;
      expect(['queued', 'running', 'succeeded']).toContain(mid.status);
      const job = await pollJob(g, res.body.jobId);
      expect(job.status).toBe('succeeded');
      expect(job.result.frames.map((x: { index: number }) => x.index)).toEqual([
        ...Array(20).keys(),
      ]);
      expect((await g.call('/key')).body.remaining).toBe(before - 40);
      await g.service.close();
    } finally {
      await dir.remove();
    }
  });

  it('fails a stored job whose clip vanished, with a clear error and a refund', async () => {
    const dir = await tempDir('labeldesk-restart-');
    try {
      // Slow enough that the job cannot finish between the poll and the stop, even on a loaded machine.
      let g = await startFixture({ latencyMs: 400 }, dir.dir);
      const before = (await g.call('/key')).body.remaining;
      const file = new Blob([new Uint8Array(await readFile(mp4))]);
      const res = await g.upload('/infer/video', {
        solution: 'objects',
        file,
        filename: 'clip.mp4',
      });
      await pollJob(g, res.body.jobId, { until: (j) => j.framesAnalysed >= 2 });
      await g.service.close();
      for (const name of await readdir(join(dir.dir, 'uploads')))
        await rm(join(dir.dir, 'uploads', name));
      g = await startFixture({ latencyMs: 1 }, dir.dir);
      const job = await pollJob(g, res.body.jobId);
      expect(job.status).toBe('failed');
      expect(job.error.code).toBe('upload_lost');
      expect((await g.call('/key')).body.remaining).toBe(before - job.framesAnalysed * 2);
      await g.service.close();
    } finally {
      await dir.remove();
    }
  });
});
